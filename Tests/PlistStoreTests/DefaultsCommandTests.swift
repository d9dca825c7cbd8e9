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
            "t": .date(Date(timeIntervalSinceReferenceDate: 789_015_845)), "x": .data(Data([0, 0xff, 0x10])),
            "word": "1",
            "os": ["a": ["1", "2"]], "xml": 1.5, "json": [1, "a"],
        ]
        #expect(try root.domain("d") == expected)
        #expect(try defaults("read", "d", "s").stdout == "hello world\n")
        #expect(try defaults("read", "d", "i").stdout == "-42\n")
        #expect(try defaults("read", "d", "b").stdout == "1\n")
        #expect(try defaults("read-type", "d", "f").stdout == "Type is float\n")
        #expect(try defaults("read-type", "d", "b").stdout == "Type is boolean\n")
        #expect(try defaults("read-type", "d", "os").stdout == "Type is dictionary\n")
        #expect(try defaults("read", "d", "t").stdout == "2026-01-02 03:04:05 +0000\n")
        #expect(try defaults("read", "d", "x").stdout == "{length = 3, bytes = 0x00ff10}\n")
        #expect(try defaults("read", "d", "f").stdout == "2.5\n")
        // A bad value: exit 1 and one line, nothing changed.
        let bad = try defaults("write", "d", "i", "-int", "seven", status: 1)
        #expect(bad.stderr == "plistconv defaults: 'seven' is not a valid int value (a whole number)\n")
        #expect(try defaults("write", "d", "b", "-bool", "maybe", status: 1).stderr.split(separator: "\n").count == 1)
        #expect(
            try defaults("write", "d", "t", "-date", "tomorrow", status: 1).stderr.split(separator: "\n").count == 1)
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
        // To itself: nothing changes (it removed the key, with exit 0).
        try defaults("rename", "one", "size", "size")
        #expect(try root.domain("one") == ["colour": "blue", "size": "3"])
        let absent = try defaults("rename", "one", "nothing", "else", status: 1)
        #expect(absent.stderr.split(separator: "\n").count == 1, "\(absent.stderr)")
        try defaults("delete", "one", "size")
        #expect(try root.domain("one") == ["colour": "blue"])
        let gone = try defaults("delete", "one", "size", status: 1)
        #expect(gone.stderr.split(separator: "\n").count == 1, "one line: \(gone.stderr)")
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
            process.environment = [
                "HOME": root.path, "XDG_CONFIG_HOME": root.path + "/config", "XDG_DATA_HOME": root.path + "/data",
            ]
            let out = Pipe()
            let err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let output = out.fileHandleForReading.readDataToEndOfFile()
            let error = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Run(
                status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
                stderr: String(decoding: error, as: UTF8.self))
        }
        #expect(try run(["write", "com.example.a", "k", "-int", "1"]).status == 0)
        #expect(try run(["write", "com.example.b", "k", "-int", "2"]).status == 0)
        let file = root.path + "/config/com.example.a/com.example.a.plist"
        #expect(try Plist(contentsOf: file) == ["k": 1])
        #expect(try run(["domains"]).stdout == "com.example.a, com.example.b\n")
        #expect(try run(["read", "com.example.b", "k"]).stdout == "2\n")
        #expect(try run(["write", "NSGlobalDomain", "k", "v"]).status == 0)
        #expect(try Plist(contentsOf: root.path + "/config/.GlobalPreferences/.GlobalPreferences.plist") == ["k": "v"])
        #expect(try run(["domains"]).stdout == "com.example.a, com.example.b\n")
    }

    /// macOS's layout of `read`: keys sorted, nested containers indented after `key = `,
    /// strings quoted unless alphanumeric, no trailing commas, Booleans as 1 and 0.
    @Test func readPrintsAsMacOSDoes() throws {
        defer { root.remove() }
        let value: Plist = [
            "autohide": true, "tilesize": 48, "magnification": 1.0, "ratio": 0.1, "orientation": "left",
            "persistent-apps": [["tile-data": ["file-label": "Notes", "bundle": "com.apple.Notes"], "GUID": 12]],
            "recent": [], "label": "caf\u{e9} \"x\"\n", "when": .date(Date(timeIntervalSinceReferenceDate: 0)),
            "blob": .data(Data(0..<30)),
        ]
        try Plist.dictionary(value.dictionary!).write(
            to: try root.container.directory(.preferences) + "/d.plist", format: .binary)
        let expected = """
            {
                autohide = 1;
                blob = {length = 30, bytes = 0x000102030405060708090a0b0c0d0e0f ... 161718191a1b1c1d};
                label = "caf\\U00e9 \\"x\\"\\n";
                magnification = 1;
                orientation = left;
                "persistent-apps" =     (
                            {
                        GUID = 12;
                        "tile-data" =             {
                            bundle = "com.apple.Notes";
                            "file-label" = Notes;
                        };
                    }
                );
                ratio = 0.1;
                recent =     (
                );
                tilesize = 48;
                when = "2001-01-01 00:00:00 +0000";
            }

            """
        #expect(try defaults("read", "d").stdout == expected)
        #expect(try defaults("read", "d", "orientation").stdout == "left\n")
    }

    /// `-date` takes what `read` prints, and ISO 8601.
    @Test func dateForms() throws {
        defer { root.remove() }
        try defaults("write", "d", "a", "-date", "2026-01-02 03:04:05 +0000")
        try defaults("write", "d", "b", "-date", "2026-01-02T03:04:05Z")
        try defaults("write", "d", "c", "-date", "2026-01-02T05:04:05+02:00")
        try defaults("write", "d", "d", "-date", "2026-01-02 04:04:05 +0100")
        let printed = try defaults("read", "d", "a").stdout.dropLast()
        try defaults("write", "d", "e", "-date", String(printed))
        let date = Plist.date(Date(timeIntervalSinceReferenceDate: 789_015_845))
        #expect(try root.domain("d") == ["a": date, "b": date, "c": date, "d": date, "e": date])
        try defaults("write", "d", "f", "-date", "2026-02-30 00:00:00 +0000", status: 1)
    }

    /// `-array-add` and `-dict-add` change the domain's own value (not one the search list
    /// finds elsewhere), refuse a value of another type, and lose no addition made at once.
    @Test func addingUsesTheDomainsOwnValue() throws {
        defer { root.remove() }
        try defaults("write", "NSGlobalDomain", "AppleLanguages", "-array", "en")
        try defaults("write", "d", "AppleLanguages", "-array-add", "fr")
        #expect(try root.domain("d") == ["AppleLanguages": ["fr"]])
        try defaults("write", "d", "s", "-string", "text")
        let refused = try defaults("write", "d", "s", "-array-add", "x", status: 1)
        #expect(
            refused.stderr == "plistconv defaults: d: the value of 's' has type string, not array: nothing was added\n")
        try defaults("write", "d", "s", "-dict-add", "k", "v", status: 1)
        #expect(try root.domain("d").dictionary?["s"] == "text")
    }

    @Test func concurrentAdditionsLoseNothing() throws {
        defer { root.remove() }
        let writers = try (0..<20).map { index in
            try Built.start(
                Built.path("plistconv"), ["defaults", "write", "d", "list", "-array-add", "-int", "\(index)"],
                root: root.path)
        }
        for writer in writers {
            writer.0.waitUntilExit()
            #expect(writer.0.terminationStatus == 0)
        }
        let list = try #require(root.domain("d").dictionary?["list"]?.array)
        #expect(Set(list.compactMap(\.int)) == Set(0..<20))
        #expect(list.count == 20)
    }

    /// `--container` works wherever it is on the line.
    @Test func containerAnywhere() throws {
        defer { root.remove() }
        let other = try TemporaryRoot()
        defer { other.remove() }
        try defaults("write", "d", "k", "v", "--container", other.path)
        try defaults("write", "--container=\(other.path)", "d", "n", "-int", "1")
        #expect(try other.domain("d") == ["k": "v", "n": 1])
        #expect(try defaults("read", "d", "--container", other.path, "k").stdout == "v\n")
        #expect(!root.files().contains("d.plist"))
    }

    /// `read` changes nothing, even for a damaged file: one line, exit 1, the file where it was.
    @Test func readChangesNothing() throws {
        defer { root.remove() }
        let folder = try root.container.directory(.preferences)
        try Data("<plist><dict><key>".utf8).write(to: URL(fileURLWithPath: folder + "/d.plist"))
        let before = root.files()
        let result = try defaults("read", "d", status: 1)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.hasPrefix("plistconv defaults: \(folder)/d.plist: "))
        try defaults("read", "d", "k", status: 1)
        try defaults("read-type", "d", "k", status: 1)
        try defaults("read", "other", status: 1)
        #expect(root.files() == before)
    }

    /// A domain file that is a folder: its error once, for a read and for a write.
    @Test func everyErrorIsPrintedOnce() throws {
        defer { root.remove() }
        try FileManager.default.createDirectory(
            atPath: root.preferences + "/d.plist", withIntermediateDirectories: true)
        let line = "plistconv defaults: \(root.preferences)/d.plist: is a folder, not a regular file\n"
        #expect(try defaults("read", "d", status: 1).stderr == line)
        #expect(try defaults("write", "d", "k", "v", status: 1).stderr == line)
        #expect(try defaults("write", "d", "k", "-array-add", "v", status: 1).stderr == line)
    }

    /// Values no calendar or no hexadecimal digit holds are refused or printed, never a crash:
    /// fullwidth digits (which `Character.isHexDigit` accepts), dates of 1e300 s and NaN.
    @Test func hostileValuesNeverCrash() throws {
        defer { root.remove() }
        let bad = try defaults("write", "d", "k", "-data", "\u{FF21}\u{FF22}", status: 1)
        #expect(bad.stderr.contains("hexadecimal") && bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
        try FileManager.default.createDirectory(atPath: root.preferences, withIntermediateDirectories: true)
        let dates: Plist = [
            "far": .date(Date(timeIntervalSinceReferenceDate: 1e300)),
            "nan": .date(Date(timeIntervalSinceReferenceDate: .nan)),
        ]
        try dates.write(to: root.preferences + "/dates.plist", format: .binary)
        let read = try defaults("read", "dates")
        #expect(read.stdout.contains("far") && read.stdout.contains("nan"), "\(read.stdout)")
    }

    /// A file path as the domain, with or without `.plist`.
    @Test func fileDomains() throws {
        defer { root.remove() }
        let folder = root.path + "/files"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try defaults("write", folder + "/settings.plist", "k", "-int", "1")
        try defaults("write", folder + "/settings", "n", "two")
        #expect(try Plist(contentsOf: folder + "/settings.plist") == ["k": 1, "n": "two"])
        #expect(try defaults("read", folder + "/settings", "n").stdout == "two\n")
        try defaults("delete", folder + "/settings.plist", "k")
        #expect(try Plist(contentsOf: folder + "/settings.plist") == ["n": "two"])
        #expect(!root.files().contains("settings.plist"))
    }

    /// `-app NAME`: the application whose desktop entry has that name (or ID).
    @Test func applicationByName() throws {
        defer { root.remove() }
        let applications = root.path + "/data/applications"
        try FileManager.default.createDirectory(atPath: applications, withIntermediateDirectories: true)
        let entry =
            "[Desktop Entry]\nType=Application\nName[fr]=Notes fr\nName = Notes\nExec=notes\n[Desktop Action New]\nName=New\n"
        try Data(entry.utf8).write(to: URL(fileURLWithPath: applications + "/com.example.Notes.desktop"))
        var environment = root.xdgEnvironment
        environment["XDG_DATA_DIRS"] = root.path + "/none"
        func run(_ arguments: [String]) throws -> Run {
            try Built.run(Built.path("plistconv"), ["defaults"] + arguments, environment: environment)
        }
        #expect(try run(["write", "-app", "notes", "k", "-int", "1"]).status == 0)
        #expect(try Plist(contentsOf: root.path + "/config/com.example.Notes/com.example.Notes.plist") == ["k": 1])
        #expect(try run(["read", "-app", "com.example.Notes", "k"]).stdout == "1\n")
        let missing = try run(["read", "-app", "New", "k"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("Couldn't find an application named \"New\""))
    }

    /// `-currentHost` and `-host` are refused with the reason (docs/COMPATIBILITY.md).
    @Test func perHostDomainsAreRefused() throws {
        defer { root.remove() }
        let refused = try defaults("-currentHost", "write", "d", "k", "v", status: 1)
        #expect(refused.stderr.hasPrefix("plistconv defaults: -currentHost is not supported"))
        try defaults("-host", "elsewhere", "read", "d", status: 1)
        #expect(root.files().isEmpty)
    }
}
