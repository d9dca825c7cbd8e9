import Foundation
import PlistKit
import TestSupport
import Testing

/// `plistconv` on small binary files that describe enormous trees: it exits 1 at once with one
/// line on standard error, and writes nothing.
/// Hostile inputs must fail at once, never hang: each test has a time limit (a hang guard, not
/// a speed measurement).
@Suite(.timeLimit(.minutes(10))) struct HostileCLITests {
    /// 22 levels of `[previous, previous]` over one 100-byte string: within the read limits
    /// (8 Mi values, 400 MiB of strings), larger than 256 MiB in every text format.
    static func sharedTree() throws -> [UInt8] {
        var value: Plist = .string(String(repeating: "x", count: 100))
        for _ in 0..<22 { value = [value, value] }
        return try value.binaryBytes()
    }

    /// 64 levels: 2^64 leaves, past the read limits.
    static func twoToTheSixtyFourLeaves() throws -> [UInt8] {
        var value: Plist = 1
        for _ in 0..<64 { value = [value, value] }
        return try value.binaryBytes()
    }

    private func expectQuickFailure(_ format: String, input: [UInt8], message: String) throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let path = try folder.write(input, to: "bomb.plist")
        let output = folder.path("out")
        let run = try Tool.run(["-f", format, path, output])
        #expect(run.status == 1, "\(format): \(run)")
        #expect(run.stdout == [])
        #expect(run.stderr == "plistconv: \(message.hasPrefix("byte") ? path : output): \(message)\n", "\(format)")
        #expect(try folder.names() == ["bomb.plist"], "no output or temporary file")
    }

    @Test(arguments: ["json", "openstep", "xml", "swift", "objc"])
    func anEnormousOutputIsRefused(format: String) throws {
        let file = try Self.sharedTree()
        #expect(file.count < 512)
        try expectQuickFailure(
            format, input: file,
            message: "the output would be larger than 268435456 bytes (raise it with --max-output-bytes)")
    }

    @Test(arguments: ["json", "openstep", "xml", "swift", "binary"])
    func twoToTheSixtyFourLeavesAreRefused(format: String) throws {
        let file = try Self.twoToTheSixtyFourLeaves()
        #expect(file.count < 1024)
        let error = try #require(throws: PlistError.self) { try Plist(binary: file) }
        #expect(error.kind == .tooManyObjects(limit: 1 << 24))
        try expectQuickFailure(format, input: file, message: error.description(limitHint: "raise it with --max-values"))
    }
}
