import Foundation
import PlistCore
import TestSupport
import Testing

@Suite(.needsCorpus) struct PbxprojWriterTests {
    /// Each corpus project with its project name (from its configuration-list comment) and the
    /// lines our output may differ in (counted, so that getting closer shows).
    static let projects: [(file: String, name: String, differingLines: Int)] = [
        ("openstep/ddplist__issue33.pbxproj", "Testproject", 1),
        ("openstep/rustplist__netnewswire.pbxproj", "NetNewsWire", 0),
    ]

    @Test(arguments: projects)
    func writesXcodesLayout(project: (file: String, name: String, differingLines: Int)) throws {
        let original = try Paths.bytes(Paths.corpus.appendingPathComponent(project.file))
        let value = try Plist(openStep: original)
        let written = try value.pbxprojBytes(projectName: project.name)
        #expect(try Plist(openStep: written).isIdentical(to: value), "reads back to the same value")
        let ours = String(decoding: written, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let theirs = String(decoding: original, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(ours.count == theirs.count)
        let differing = zip(ours, theirs).enumerated().filter { $0.element.0 != $0.element.1 }
        #expect(
            differing.count == project.differingLines,
            "\(project.file): \(differing.prefix(3).map { "line \($0.offset + 1): \($0.element.0.debugDescription) vs \($0.element.1.debugDescription)" })"
        )
    }
}
