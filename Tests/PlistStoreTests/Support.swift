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
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent())
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("plist-store-probe").path) }
            ?? candidates[0]
    }()

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Starts `executable` with `arguments`, PLIST_CONTAINER_ROOT set to `root`.
    static func start(_ executable: String, _ arguments: [String], root: String, stdin: Data? = nil) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment[AppContainer.rootEnvironmentVariable] = root
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

    /// Runs `executable` to its end.
    static func run(_ executable: String, _ arguments: [String], root: String, stdin: Data? = nil) throws -> Run {
        let (process, out, err) = try start(executable, arguments, root: root, stdin: stdin)
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
