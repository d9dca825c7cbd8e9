import Foundation
import PlistKit
import PlistStore
import Testing

/// `plistconv defaults` run as a process on a container root.
@Suite(.timeLimit(.minutes(10)))
struct DefaultsCommandTests {
    let root: TemporaryRoot

    init() throws { root = try TemporaryRoot() }

    @discardableResult
    func defaults(_ arguments: String..., stdin: Data? = nil, status: Int32 = 0) throws -> Run {
        let result = try Built.defaults(arguments, root: root.path, stdin: stdin)
        #expect(result.status == status, "defaults \(arguments.joined(separator: " ")): \(result.stderr)")
        return result
    }

    @Test func typedWritesAndReads() throws {
        defer { root.remove() }
        try defaults("write", "d", "s", "-string", "hello world")
        try defaults("write", "d", "i", "-int", "-42")
        try defaults("write", "d", "n", "-integer", "18446744073709551615")
        try defaults("write", "d", "f", "-float", "2.5")
        try defaults("write", "d", "b", "-bool", "YES")
        try defaults("write", "d", "b2", "-boolean", "false")
        try defaults("write", "d", "t", "-date", "2026-01-02T03:04:05Z")
        try defaults("write", "d", "x", "-data", "00ff10")
        try defaults("write", "d", "word", "1")
        try defaults("write", "d", "os", "{ a = (1, 2); }")
        try defaults("write", "d", "xml", "<plist><real>1.5</real></plist>")
        try defaults("write", "d", "json", "[1, \"a\"]")
        let expected: Plist = [
            "s": "hello world", "i": -42, "n": .integer(PlistInteger(UInt64.max)), "f": 2.5, "b": true, "b2": false,
            "t": .date(Date(timeIntervalSinceReferenceDate: 789_015_845)), "x": .data(Data([0, 0xff, 0x10])), "word": "1",
            "os": ["a": ["1", "2"]], "xml": 1.5, "json": [1, "a"],
        ]
        #expect(try root.domain("d") == expected)
        #expect(try defaults("read", "d", "s").stdout == "hello world\n")
        #expect(try defaults("read", "d", "i").stdout == "-42\n")
        #expect(try defaults("read", "d", "b").stdout == "1\n")
        #expect(try defaults("read-type", "d", "f").stdout == "Type is float\n")
        #expect(try defaults("read-type", "d", "b").stdout == "Type is boolean\n")
        #expect(try defaults("read-type", "d", "os").stdout == "Type is dictionary\n")
        let whole = try defaults("read", "d").stdout
        #expect(try Plist(openStep: Array(whole.utf8)).dictionary?.count == 12)
        try defaults("write", "d", "i", "-int", "seven", status: 64)
        try defaults("write", "d", "b", "-bool", "maybe", status: 64)
        #expect(try root.domain("d") == expected, "a refused write changes nothing")
    }

    @Test func arraysAndDictionaries() throws {
        defer { root.remove() }
        try defaults("write", "d", "a", "-array", "one", "-int", "2")
        try defaults("write", "d", "a", "-array-add", "three")
        try defaults("write", "d", "m", "-dict", "k", "v", "n", "-float", "1.5")
        try defaults("write", "d", "m", "-dict-add", "k", "w", "z", "-bool", "no")
        #expect(try root.domain("d") == ["a": ["one", 2, "three"], "m": ["k": "w", "n": 1.5, "z": false]])
    }

    @Test func deleteRenameDomainsFind() throws {
        defer { root.remove() }
        try defaults("write", "one", "{ color = blue; size = 3; }")
        try defaults("write", "two", "shade", "-string", "dark blue")
        try defaults("write", "NSGlobalDomain", "AppleLanguage", "en")
        #expect(try defaults("domains").stdout == "one, two\n")
        let found = try defaults("find", "BLUE").stdout
        #expect(found.contains("Found 1 keys in domain 'one'"))
        #expect(found.contains("Found 1 keys in domain 'two'"))
        try defaults("rename", "one", "color", "colour")
        #expect(try root.domain("one") == ["colour": "blue", "size": "3"])
        try defaults("delete", "one", "size")
        #expect(try root.domain("one") == ["colour": "blue"])
        try defaults("delete", "one", "size", status: 1)
        try defaults("delete", "two")
        #expect(!root.files().contains("two.plist"))
        try defaults("delete", "two", status: 1)
        #expect(try defaults("read", "-g", "AppleLanguage").stdout == "en\n")
        let missing = try defaults("read", "one", "nothing", status: 1)
        #expect(missing.stderr.contains("The domain/default pair of (one, nothing) does not exist"))
        try defaults("read", "nowhere", status: 1)
    }

    @Test func exportAndImport() throws {
        defer { root.remove() }
        try defaults("write", "d", "{ a = 1; b = (x); }")
        let exported = try defaults("export", "d", "-").stdout
        #expect(exported.hasPrefix("<?xml"))
        #expect(try Plist(xml: Array(exported.utf8)) == ["a": "1", "b": ["x"]])
        try defaults("import", "e", "-", stdin: Data(exported.utf8))
        #expect(try root.domain("e") == ["a": "1", "b": ["x"]])
        let file = root.path + "/out.plist"
        try defaults("export", "e", file)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)).starts(with: Array("bplist00".utf8)))
        try defaults("import", "f", file)
        #expect(try root.domain("f") == ["a": "1", "b": ["x"]])
        try defaults("import", "g", "-", stdin: Data("(1)".utf8), status: 1)
        #expect(!root.files().contains("g.plist"))
    }

    /// `--container` wins over the environment variable.
    @Test func containerOption() throws {
        defer { root.remove() }
        let other = try TemporaryRoot()
        defer { other.remove() }
        try defaults("--container", other.path, "write", "d", "k", "v")
        #expect(try other.domain("d") == ["k": "v"])
        #expect(!root.files().contains("d.plist"))
    }

    /// A library store sees what the command wrote, and the command what the store wrote.
    @Test func sharesTheLibrarysStore() throws {
        defer { root.remove() }
        let store = try Preferences(domain: "d", container: root.container, arguments: [], flushDelay: nil)
        store.set(1, forKey: "fromLibrary")
        try store.synchronize()
        try defaults("write", "d", "fromTool", "-int", "2")
        try store.synchronize()
        #expect(store.integer(forKey: "fromTool") == 2)
        #expect(try defaults("read", "d", "fromLibrary").stdout == "1\n")
    }

    /// Without a root, each domain lives in its own XDG folder, as an app's
    /// `AppContainer(appID:)` has it.
    @Test func xdgLayoutWithoutARoot() throws {
        defer { root.remove() }
        func run(_ arguments: [String]) throws -> Run {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Built.path("plistconv"))
            process.arguments = ["defaults"] + arguments
            process.environment = ["HOME": root.path, "XDG_CONFIG_HOME": root.path + "/config", "XDG_DATA_HOME": root.path + "/data"]
            let out = Pipe()
            let err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let output = out.fileHandleForReading.readDataToEndOfFile()
            let error = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Run(status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self), stderr: String(decoding: error, as: UTF8.self))
        }
        #expect(try run(["write", "com.example.a", "k", "-int", "1"]).status == 0)
        #expect(try run(["write", "com.example.b", "k", "-int", "2"]).status == 0)
        let file = root.path + "/config/com.example.a/com.example.a.plist"
        #expect(try Plist(contentsOf: file) == ["k": 1])
        #expect(try run(["domains"]).stdout == "com.example.a, com.example.b\n")
        #expect(try run(["read", "com.example.b", "k"]).stdout == "2\n")
        let global = try run(["write", "NSGlobalDomain", "k", "v"])
        #expect(global.status == 1)
        #expect(global.stderr.contains("--container"))
    }
}
