import Foundation
import PlistKit
import Testing

/// The library starts no thread unless asked to (`PlistEncoder.parallelism`). Threads are
/// counted in a process of its own (`plist-thread-probe`): in the test runner, other tests
/// start threads at any time. A value of 8,000 dictionaries of 10 entries (88,000 values) is
/// large enough that the XML writer would share it out to threads if it did so unasked.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status"), "threads are counted in /proc"))
struct ThreadTests {
    private static let items = 8_000

    /// The built `plist-thread-probe`, next to the test runner (SwiftPM puts products side by side).
    private static func probe() throws -> URL {
        var folders: [URL] = []
        if let main = Bundle.main.executableURL { folders.append(main.deletingLastPathComponent()) }
        if let first = CommandLine.arguments.first {
            folders.append(URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        let candidates = folders.map { $0.appendingPathComponent("plist-thread-probe") }
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return try #require(found, "plist-thread-probe not built; looked at \(candidates.map(\.path))")
    }

    /// Runs the probe on `items` items with `parallelism`: the threads it had before and after
    /// encoding, and the XML.
    private static func encode(parallelism: Int) throws -> (before: Int, after: Int, xml: Data) {
        let process = Process()
        process.executableURL = try probe()
        process.arguments = [String(items), String(parallelism)]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read both pipes to the end before waiting, so that a full pipe cannot block the probe.
        let xml = output.fileHandleForReading.readDataToEndOfFile()
        let report = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(report)")
        let counts = report.split(whereSeparator: \.isWhitespace).dropFirst().compactMap { Int($0) }
        try #require(report.hasPrefix("threads ") && counts.count == 2, "\(report)")
        return (counts[0], counts[1], xml)
    }

    @Test func encodingStartsNoThreadByDefault() throws {
        let run = try Self.encode(parallelism: 1)
        #expect(run.before >= 1)
        #expect(run.after == run.before, "threads before and after the encode")
        #expect(run.xml.count > 1_000_000)
    }

    /// With `parallelism` above 1, on two processors or more, the probe does start threads (so
    /// the count above would see them), and the bytes are the default's.
    @Test(.enabled(if: ProcessInfo.processInfo.activeProcessorCount > 1, "needs two processors"))
    func parallelEncodingGivesTheSameBytes() throws {
        let single = try Self.encode(parallelism: 1)
        let parallel = try Self.encode(parallelism: 4)
        #expect(parallel.after > parallel.before, "threads before and after the encode")
        #expect(parallel.xml == single.xml)
    }
}
