import PlistCore
import TestSupport
import Testing

/// Each rule of `PbxprojRules`, on a small project written as Xcode writes it
/// (`Fixtures/xcode/`): reading and writing it gives its bytes back.
@Suite struct PbxprojRulesTests {
    /// `file` read and written again with `projectName`, and `original` when given.
    private func rewritten(_ file: String, projectName: String, keepingOriginal: Bool = false) throws -> (
        written: [UInt8], original: [UInt8]
    ) {
        let original = try Paths.bytes(Fixtures.url("xcode/" + file))
        let value = try Plist(openStep: original)
        let written = try value.pbxprojBytes(projectName: projectName, original: keepingOriginal ? original : nil)
        return (written, original)
    }

    private func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> String {
        let left = String(decoding: a, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let right = String(decoding: b, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard let line = left.indices.first(where: { $0 < right.count && left[$0] != right[$0] }) else {
            return "line counts differ"
        }
        return "line \(line + 1): \(left[line].debugDescription) vs \(right[line].debugDescription)"
    }

    /// `/* XCRemoteSwiftPackageReference "Name" */` (the URL's last component without its
    /// extension), `/* XCLocalSwiftPackageReference "path" */`, package products (a plug-in's
    /// without `plugin:`) and the build files that link them; `:` is quoted.
    @Test func swiftPackageReferencesAndProducts() throws {
        let (written, original) = try rewritten("packages.pbxproj", projectName: "Packages")
        #expect(written == original, "\(firstDifference(written, original))")
    }

    /// Below `objectVersion` 77 synchronized folders go on one line and exception sets are
    /// named by their isa.
    @Test func synchronizedFoldersOnOneLineBeforeVersion77() throws {
        let (written, original) = try rewritten("synchronized-70.pbxproj", projectName: "Sync")
        #expect(written == original, "\(firstDifference(written, original))")
    }

    /// From `objectVersion` 77 synchronized folders go over several lines and exception sets
    /// are `Exceptions for "folder" folder in "target" target` (or `in "phase" phase from ...`).
    @Test func synchronizedFoldersOverLinesFromVersion77() throws {
        let (written, original) = try rewritten("synchronized-77.pbxproj", projectName: "Sync")
        #expect(written == original, "\(firstDifference(written, original))")
    }

    /// What the rules cannot derive keeps the comment (and line) it had: objects of kinds the
    /// rules do not know, an ID no object has, a build file in no phase, a configuration list
    /// two targets share; and the project keeps the name the file gives it whatever
    /// `projectName` says.
    @Test func unknownKindsAndTheNameAreKeptFromTheOriginal() throws {
        let (written, original) = try rewritten(
            "unknown-kinds.pbxproj", projectName: "unknown-kinds", keepingOriginal: true)
        #expect(written == original, "\(firstDifference(written, original))")
        let (renamed, _) = try rewritten("packages.pbxproj", projectName: "packages", keepingOriginal: true)
        let text = String(decoding: renamed, as: UTF8.self)
        #expect(text.contains("/* Build configuration list for PBXProject \"Packages\" */"))
    }

    /// Any bytes as the original file: what is not a project's comment is ignored.
    @Test func oddOriginalsAreIgnored() throws {
        let (written, original) = try rewritten("packages.pbxproj", projectName: "Packages")
        let value = try Plist(openStep: original)
        let odd = [
            "", " /* ", "\t\tX /* unterminated", "\t\t = {isa = ", " */ /* */", "\t\tA /* */ = {isa = ",
            "Build configuration list for PBXProject \"", String(repeating: "a /* b */", count: 1000),
        ]
        for text in odd {
            #expect(try value.pbxprojBytes(projectName: "Packages", original: Array(text.utf8)) == written, "\(text)")
        }
    }
}
