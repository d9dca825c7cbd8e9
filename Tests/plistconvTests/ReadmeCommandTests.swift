import Foundation
import PlistKit
import TestSupport
import Testing

/// The README's set-up commands for a fresh machine: the first runs `plistconv` on the bundled
/// sample and shows its result on standard output, the second runs the tests; .ci/run runs
/// the same two.
@Suite struct ReadmeCommandTests {
    /// The lines of the README's first `sh` block.
    static func setUpCommands() throws -> [String] {
        let readme = try String(contentsOf: Paths.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let block = try #require(readme.components(separatedBy: "```sh\n").dropFirst().first)
        return try #require(block.components(separatedBy: "```").first).split(separator: "\n").map(String.init)
    }

    @Test func firstCommandPrintsTheSampleAsXML() throws {
        let commands = try Self.setUpCommands()
        #expect(commands.count == 2)
        let first = try #require(commands.first)
        let prefix = "swift run plistconv "
        try #require(first.hasPrefix(prefix), "the README's first command is \(first)")
        let arguments = first.dropFirst(prefix.count).split(separator: " ").map(String.init)
        let output = try Tool.run(arguments, in: Paths.repository)
        #expect(output.status == 0, "\(output)")
        #expect(output.stdoutText.hasPrefix("<?xml"), "\(output)")
        let sample = try Plist(contentsOf: Paths.fixtures.appendingPathComponent("sample/Info.binary.plist").path)
        #expect(try Plist(xml: output.stdout) == sample)
    }

    @Test func ciRunsTheSameCommands() throws {
        let ci = try String(contentsOf: Paths.repository.appendingPathComponent(".ci/run"), encoding: .utf8)
        let ciLines = Set(ci.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        for command in try Self.setUpCommands() {
            #expect(ciLines.contains(command), "\(command) is not a line of .ci/run")
        }
    }
}
