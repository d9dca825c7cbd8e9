import Configuration
import Foundation
import Logging
import PlistConfiguration
import PlistKit
import SystemPackage
import Testing

@Suite(.timeLimit(.minutes(10)))
struct PlistConfigSnapshotTests {
    static let config: Plist = [
        "name": "server", "debug": true,
        "http": ["port": 8080, "timeout": 2.5, "hosts": ["a.example", "b.example"], "retries": [1, 2, 3]],
        "key": .data(Data([1, 2, 3])),
        "ratio": 2.0,
    ]

    func folder() throws -> String {
        let path = NSTemporaryDirectory() + "plist-config-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test(arguments: [PlistFormat.binary, .xml, .json, .openStep])
    func readsEveryFormat(_ format: PlistFormat) async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var options = PlistWriteOptions()
        options.openStepValues = .gnustep
        let path = folder + "/config.plist"
        var entries = Self.config.dictionary!
        if format == .json { entries["key"] = nil }  // JSON has no data
        try Plist.dictionary(entries).write(to: path, format: format, options: options)
        let provider = try await FileProvider<PlistConfigSnapshot>(filePath: FilePath(path))
        let config = ConfigReader(provider: provider)
        #expect(config.string(forKey: "name") == "server")
        #expect(config.bool(forKey: "debug") == true)
        #expect(config.int(forKey: "http.port") == 8080)
        #expect(config.double(forKey: "http.timeout") == 2.5)
        #expect(config.double(forKey: "http.port") == 8080)
        #expect(config.int(forKey: "ratio") == 2)
        #expect(config.stringArray(forKey: "http.hosts") == ["a.example", "b.example"])
        #expect(config.intArray(forKey: "http.retries") == [1, 2, 3])
        #expect(config.string(forKey: "missing", default: "x") == "x")
        if format != .json {
            #expect(config.bytes(forKey: "key") == [1, 2, 3])
        }
        // A value of another type is an error, which the reader turns into the default.
        #expect(config.int(forKey: "name", default: 7) == 7)
        #expect(throws: (any Error).self) { try config.requiredInt(forKey: "name") }
    }

    @Test func topLevelMustBeADictionary() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Plist.array([1]).write(to: folder + "/a.plist", format: .xml)
        await #expect(throws: PlistConfigError.self) {
            _ = try await FileProvider<PlistConfigSnapshot>(filePath: FilePath(folder + "/a.plist"))
        }
        try Data("<plist><dict><key>".utf8).write(to: URL(fileURLWithPath: folder + "/b.plist"))
        await #expect(throws: PlistError.self) {
            _ = try await FileProvider<PlistConfigSnapshot>(filePath: FilePath(folder + "/b.plist"))
        }
    }

    @Test func secretsAreMarked() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try (["password": "hunter2", "user": "u"] as Plist).write(to: folder + "/c.plist", format: .binary)
        let provider = try await FileProvider<PlistConfigSnapshot>(
            parsingOptions: .init(secretsSpecifier: .specific(["password"])), filePath: FilePath(folder + "/c.plist"))
        let password = try provider.value(forKey: AbsoluteConfigKey(["password"]), type: .string)
        #expect(password.value?.isSecret == true)
        let user = try provider.value(forKey: AbsoluteConfigKey(["user"]), type: .string)
        #expect(user.value?.isSecret == false)
    }

    /// `ReloadingFileProvider` picks up a rewritten file (an atomic replace, as editors and
    /// this package write).
    @Test func reloadsOnChange() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/r.plist"
        try (["level": "info"] as Plist).write(to: path, format: .xml)
        let provider = try await ReloadingFileProvider<PlistConfigSnapshot>(
            filePath: FilePath(path), pollInterval: .milliseconds(50), logger: Logger(label: "test"))
        let config = ConfigReader(provider: provider)
        #expect(config.string(forKey: "level") == "info")
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await provider.run() }
            try (["level": "debug"] as Plist).write(to: path, format: .binary)
            var level = config.string(forKey: "level")
            while level != "debug" {
                try await Task.sleep(for: .milliseconds(20))
                level = config.string(forKey: "level")
            }
            #expect(level == "debug")
            group.cancelAll()
        }
    }
}
