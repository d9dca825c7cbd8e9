import Dispatch
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What one run of the built `plistconv` produced.
struct Output: CustomStringConvertible {
    var status: Int32
    var stdout: [UInt8]
    var stderr: String

    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    var description: String {
        "exit \(status), stdout \(stdoutText.debugDescription), stderr \(stderr.debugDescription)"
    }
}

/// The built `plistconv` executable, run as a real process.
enum Tool {
    /// Where the executable was found, or why not.
    static let location: Result<URL, LocateError> = locate()

    struct LocateError: Error, CustomStringConvertible {
        var searched: [String]
        var description: String {
            "the built plistconv executable was not found; looked at: " + searched.joined(separator: ", ")
                + " (build it with `swift build --build-tests --scratch-path .build-cli`)"
        }
    }

    /// Next to the test runner first (SwiftPM puts products side by side), then in
    /// `<scratch>/debug/plistconv` for every `.build*` scratch folder of the repository,
    /// preferring the most recently built one.
    private static func locate() -> Result<URL, LocateError> {
        var searched: [String] = []
        var folders: [URL] = []
        if let main = Bundle.main.executableURL { folders.append(main.deletingLastPathComponent()) }
        if let first = CommandLine.arguments.first {
            folders.append(URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        for folder in folders {
            let candidate = folder.appendingPathComponent("plistconv")
            searched.append(candidate.path)
            if isExecutableFile(candidate) { return .success(candidate) }
        }
        let scratch = (try? FileManager.default.contentsOfDirectory(atPath: Paths.repository.path)) ?? []
        let built = scratch.filter { $0.hasPrefix(".build") }.sorted().map {
            Paths.repository.appendingPathComponent($0).appendingPathComponent("debug/plistconv")
        }
        searched += built.map(\.path)
        let newest = built.filter(isExecutableFile).max { modified($0) < modified($1) }
        return newest.map { .success($0) } ?? .failure(LocateError(searched: searched))
    }

    private static func isExecutableFile(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
            && FileManager.default.isExecutableFile(atPath: url.path)
    }

    private static func modified(_ url: URL) -> Date {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        return attributes?[.modificationDate] as? Date ?? .distantPast
    }

    /// Runs `plistconv arguments` (or `executable arguments`), with `stdin` piped in (or
    /// /dev/null when nil), and collects both output streams through pipes. A run that takes
    /// over 60 s is killed and recorded as an issue.
    static func run(
        _ arguments: [String], stdin: [UInt8]? = nil, in directory: URL? = nil, executable path: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Output {
        let executable = try path.map { URL(fileURLWithPath: $0) } ?? location.get()
        signal(SIGPIPE, SIG_IGN)  // a child that exits without reading stdin must not kill the test runner
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let inPipe = Pipe()
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : inPipe
        process.standardOutput = outPipe
        process.standardError = errPipe
        try process.run()

        let out = Drain(outPipe.fileHandleForReading)
        let err = Drain(errPipe.fileHandleForReading)
        if let stdin {
            let writer = inPipe.fileHandleForWriting
            Thread {
                try? writer.write(contentsOf: Data(stdin))
                try? writer.close()
            }.start()
        }
        let watchdog = Watchdog(process)
        process.waitUntilExit()
        watchdog.cancel()
        let output = Output(
            status: process.terminationStatus, stdout: [UInt8](out.wait()),
            stderr: String(decoding: err.wait(), as: UTF8.self))
        if process.terminationReason != .exit || watchdog.fired {
            let killed = watchdog.fired ? ", killed after 60 s" : ""
            Issue.record(
                "plistconv \(arguments) did not exit normally (signal \(process.terminationStatus)\(killed))",
                sourceLocation: sourceLocation)
        }
        return output
    }
}

/// Reads a pipe to its end on its own thread, so that no stream can fill up and block the child.
private final class Drain: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    init(_ handle: FileHandle) {
        Thread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }.start()
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}

/// Terminates a process that runs longer than a minute.
private final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    private(set) var fired = false
    private let process: Process

    init(_ process: Process) {
        self.process = process
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) { [self] in
            lock.lock()
            defer { lock.unlock() }
            if !cancelled, process.isRunning {
                fired = true
                process.terminate()
            }
        }
    }

    func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }
}
