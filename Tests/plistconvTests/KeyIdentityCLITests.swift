import Foundation
import PlistKit
import TestSupport
import Testing

/// The command line keeps every key a file holds, spellings that Swift's `String` calls equal
/// included: conversions to every format and back (in memory and streamed both ways), and
/// extract, insert, replace and remove by key path name one spelling. Every output reads back
/// with every key, in this package and in plistlib.
@Suite struct KeyIdentityCLITests {
    static let pairs: [(String, String)] = [
        ("e\u{301}", "\u{E9}"), ("\u{212B}", "\u{C5}"), ("\u{1100}\u{1161}", "\u{AC00}"),
    ]

    static func value(_ a: String, _ b: String) -> Plist {
        [a: 1, b: 2, "x": 3, "nested": .dictionary([b: .array([.string(a)]), a: .dictionary([a: true, b: false])])]
    }

    @Test(arguments: pairs)
    func conversionsKeepEveryKey(_ a: String, _ b: String) throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let value = Self.value(a, b)
        let binary = try folder.write(try value.binaryBytes(), to: "in.bplist")
        let json = try Tool.run(["-f", "json", binary, "-"])
        #expect(json.status == 0, "\(json)")
        #expect(try Plist(bytes: json.stdout) == value, "binary to JSON")
        let conversions: [[String]] = [
            ["-f", "xml"], ["-f", "binary"], ["-f", "json"], ["-f", "gnustep"], ["-f", "xml", "--stream"],
        ]
        for options in conversions {
            let out = folder.path("out")
            let run = try Tool.run(options + [binary, out])
            #expect(run.status == 0, "\(options): \(run)")
            #expect(try Plist(bytes: try folder.read("out")) == value, "\(options)")
            let back = try Tool.run(
                ["-f", "binary"] + (options.last == "xml" ? ["--stream"] : []) + [out, out + ".b"])
            #expect(back.status == 0, "\(options) back: \(back)")
            #expect(try Plist(bytes: try folder.read("out.b")) == value, "\(options) and back")
            if options == ["-f", "xml"], Oracles.plistOracle != nil {
                #expect(try plistlib(folder.path("out.b")) == value, "plistlib reads the binary")
                #expect(try plistlib(out, format: "xml") == value, "plistlib reads the XML")
            }
        }
    }

    @Test(arguments: pairs)
    func keyPathsNameOneSpelling(_ a: String, _ b: String) throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let path = try folder.write(try Plist.dictionary([b: 2, "x": 3]).binaryBytes(), to: "in.plist")
        let missing = try Tool.run(["extract", a, "raw", path])
        #expect(missing.status != 0, "\(missing)")
        #expect(try Tool.run(["-insert", a, "-integer", "1", path]).status == 0)
        #expect(try Tool.run(["extract", a, "raw", path]).stdoutText == "1\n")
        #expect(try Tool.run(["extract", b, "raw", path]).stdoutText == "2\n")
        #expect(try Tool.run(["-replace", b, "-string", "two", path]).status == 0)
        #expect(try Tool.run(["-remove", a, path]).status == 0)
        #expect(try Plist(bytes: try folder.read("in.plist")) == [b: "two", "x": 3])
        // The same through a file that is not binary (read whole, not lazily).
        let xml = try folder.write(try Plist.dictionary([a: 1, b: 2]).xmlBytes(), to: "in.xml")
        #expect(try Tool.run(["extract", a, "raw", xml]).stdoutText == "1\n")
        #expect(try Tool.run(["extract", b, "raw", xml]).stdoutText == "2\n")
    }

    private func plistlib(_ path: String, format: String = "binary") throws -> Plist {
        let script = try #require(Oracles.plistOracle)
        let python = try #require(Oracles.python3)
        let folder = try TempFolder()
        defer { folder.remove() }
        let status = try ChildProcess.run(
            python.path, [script.path, "--format", format, path], stdout: folder.path("dump.json"))
        try #require(status == 0)
        return try OracleJSON.plist(from: try folder.read("dump.json"))
    }
}
