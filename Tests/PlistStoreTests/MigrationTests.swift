import Foundation
import PlistKit
import PlistStore
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10)))
struct MigrationTests {
    /// A file that Foundation's own UserDefaults wrote (in the probe, with XDG_CONFIG_HOME set)
    /// moves into the container in one call.
    @Test func fromFoundationOnLinux() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let config = root.path + "/config"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Built.path("plist-store-probe"))
        process.arguments = ["foundation", "com.example.old"]
        process.environment = ["XDG_CONFIG_HOME": config, "HOME": root.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let old = config + "/com.example.old.plist"
        #expect(try String(contentsOfFile: old, encoding: .utf8).hasPrefix("<?xml"))

        let store = try Preferences(
            domain: "com.example.old", container: root.container, arguments: [], flushDelay: nil)
        store.set("kept", forKey: "s")
        #expect(try store.migrate(from: old) == 5)
        let expected: Plist = ["s": "kept", "i": 42, "d": 2.5, "b": true, "a": ["x", "y"], "m": ["k": 1]]
        #expect(try root.domain("com.example.old") == expected)
        #expect(try store.migrate(from: old) == 0, "a second run copies nothing")
        #expect(FileManager.default.fileExists(atPath: old), "the old file stays")
        #expect(try store.migrate(from: root.path + "/none.plist") == 0)
    }

    @Test func foundationFileFollowsXDG() {
        let path = Preferences.foundationFile(forDomain: "com.example.app")
        let environment = ProcessInfo.processInfo.environment
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            #expect(path == config + "/com.example.app.plist")
        } else {
            #expect(path == (environment["HOME"] ?? "") + "/.config/com.example.app.plist")
        }
    }

    /// An Apple binary preference file, written by Python's plistlib (not by us).
    @Test(.needsPython3) func fromAppleBinaryFile() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let file = root.path + "/com.apple.dock.plist"
        let script = """
            import plistlib, sys, datetime
            value = {"autohide": True, "tilesize": 48, "orientation": "left", "magnification": 1.5,
                     "persistent-apps": [{"tile-data": {"file-label": "Notes", "bundle": b"\\x01\\x02"}}],
                     "mod-count": 2**63 - 1, "when": datetime.datetime(2024, 5, 6, 7, 8, 9)}
            with open(sys.argv[1], "wb") as f:
                plistlib.dump(value, f, fmt=plistlib.FMT_BINARY)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, file]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let entries = try Preferences.entries(ofPreferencesFile: file)
        #expect(entries["autohide"] == true)
        #expect(entries["tilesize"] == 48)
        #expect(entries["persistent-apps"] == [["tile-data": ["file-label": "Notes", "bundle": .data(Data([1, 2]))]]])
        #expect(entries["mod-count"] == .integer(PlistInteger(Int64.max)))
        let store = try Preferences(domain: "com.apple.dock", container: root.container, arguments: [], flushDelay: nil)
        #expect(try store.migrate(from: file) == 7)
        #expect(store.double(forKey: "magnification") == 1.5)
        #expect(try root.domain("com.apple.dock").dictionary?.count == 7)
    }

    @Test func damagedOldFileIsAnError() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let file = root.path + "/old.plist"
        try Data("<plist><dict><key>a".utf8).write(to: URL(fileURLWithPath: file))
        let store = try Preferences(domain: "d", container: root.container, arguments: [], flushDelay: nil)
        #expect { try store.migrate(from: file) } throws: { ($0 as? PlistStoreError)?.code == .damagedFile }
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data("<plist><dict><key>a".utf8))
        #expect(root.files().isEmpty)
    }
}
