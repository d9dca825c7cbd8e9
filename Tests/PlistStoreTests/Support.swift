import Foundation
import PlistKit
import PlistStore
import Testing

/// A fresh container root under the temporary folder, removed by `remove()`.
struct TemporaryRoot {
    let path: String
    var container: AppContainer { AppContainer(root: path) }
    var preferences: String { path + "/Library/Preferences" }

    init() throws {
        path = NSTemporaryDirectory() + "plist-store-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// The domain file's value, read as a binary property list.
    func domain(_ name: String) throws -> Plist {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: preferences + "/\(name).plist"))
        #expect(bytes.starts(with: Array("bplist00".utf8)))
        return try Plist(bytes: bytes)
    }

    /// The files in the preferences folder.
    func files() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: preferences)) ?? []).sorted()
    }
}

/// What one run of a built executable produced.
struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// The executables built beside the test runner.
enum Built {
    static let folder: URL = {
        var candidates: [URL] = []
        if let main = Bundle.main.executableURL { candidates.append(main.deletingLastPathComponent()) }
        candidates.append(
            URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent())
        return candidates.first {
            FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("plist-store-probe").path)
        }
            ?? candidates[0]
    }()

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Starts `executable` with `arguments`, PLIST_CONTAINER_ROOT set to `root`.
    static func start(_ executable: String, _ arguments: [String], root: String, stdin: Data? = nil) throws -> (
        Process, Pipe, Pipe
    ) {
        var environment = ProcessInfo.processInfo.environment
        environment[AppContainer.rootEnvironmentVariable] = root
        return try start(executable, arguments, environment: environment, stdin: stdin)
    }

    /// Starts `executable` with `arguments` and exactly `environment`.
    static func start(_ executable: String, _ arguments: [String], environment: [String: String], stdin: Data? = nil)
        throws
        -> (Process, Pipe, Pipe)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        if let stdin {
            let input = Pipe()
            process.standardInput = input
            try process.run()
            input.fileHandleForWriting.write(stdin)
            try input.fileHandleForWriting.close()
        } else {
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }
        return (process, out, err)
    }

    /// Runs `executable` to its end, PLIST_CONTAINER_ROOT set to `root`.
    static func run(_ executable: String, _ arguments: [String], root: String, stdin: Data? = nil) throws -> Run {
        var environment = ProcessInfo.processInfo.environment
        environment[AppContainer.rootEnvironmentVariable] = root
        return try run(executable, arguments, environment: environment, stdin: stdin)
    }

    /// Runs `executable` to its end with exactly `environment`.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String], stdin: Data? = nil)
        throws -> Run
    {
        let (process, out, err) = try start(executable, arguments, environment: environment, stdin: stdin)
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
            stderr: String(decoding: error, as: UTF8.self))
    }

    static func probe(_ arguments: [String], root: String) throws -> Run {
        try run(path("plist-store-probe"), arguments, root: root)
    }

    static func defaults(_ arguments: [String], root: String, stdin: Data? = nil) throws -> Run {
        try run(path("plistconv"), ["defaults"] + arguments, root: root, stdin: stdin)
    }
}

extension TemporaryRoot {
    /// An environment with no container root, whose home and XDG folders are inside this root.
    var xdgEnvironment: [String: String] {
        [
            "HOME": path, "XDG_CONFIG_HOME": path + "/config", "XDG_DATA_HOME": path + "/data",
            "XDG_CACHE_HOME": path + "/cache", "XDG_RUNTIME_DIR": path + "/run", "PATH": "/usr/bin:/bin",
        ]
    }
}
