import Foundation
import PlistKit
import PlistStore
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Writers, readers and crashes in real processes on one domain. About 15 s together on two
/// shared cores; the limit leaves room for a CI run where every other suite runs beside them.
@Suite(.timeLimit(.minutes(10)))
struct PreferencesProcessTests {
    /// 8 processes write 200 distinct keys each into one domain at once, synchronizing every
    /// 10 keys; a ninth process observes. Every key arrives, and the observer sees all of them.
    @Test func eightWritersLoseNoKey() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        _ = try root.container.directory(.preferences)
        let observer = try Built.start(Built.path("plist-store-probe"), ["observe", "d", "1600"], root: root.path)
        defer { if observer.0.isRunning { kill(observer.0.processIdentifier, SIGKILL) } }
        let ready = observer.1.fileHandleForReading
        #expect(String(decoding: ready.availableDataLine(), as: UTF8.self) == "ready")
        let writers = try (0..<8).map { index in
            try Built.start(Built.path("plist-store-probe"), ["write", "d", "p\(index)", "200", "10"], root: root.path)
        }
        for writer in writers {
            writer.0.waitUntilExit()
            #expect(
                writer.0.terminationStatus == 0,
                "\(String(decoding: writer.2.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
        }
        let entries = try #require(root.domain("d").dictionary)
        #expect(entries.count == 1_600)
        for index in 0..<8 {
            for key in 0..<200 { #expect(entries["p\(index)-\(key)"] == Plist(key)) }
        }
        let seen = String(decoding: ready.readDataToEndOfFile(), as: UTF8.self)
        observer.0.waitUntilExit()
        #expect(seen == "seen 1600\n")
    }

    /// The same through `plistconv defaults write`, one process per key.
    @Test func eightCommandLineWritersLoseNoKey() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let tool = Built.path("plistconv")
        let perWriter = 25
        let script =
            "i=0; while [ $i -lt \(perWriter) ]; do \"$0\" defaults write d \"$1-$i\" -int $i || exit 1; i=$((i+1)); done"
        let writers = try (0..<8).map { index in
            try Built.start("/bin/sh", ["-c", script, tool, "c\(index)"], root: root.path)
        }
        for writer in writers {
            writer.0.waitUntilExit()
            #expect(writer.0.terminationStatus == 0)
        }
        let entries = try #require(root.domain("d").dictionary)
        #expect(entries.count == 8 * perWriter)
        for index in 0..<8 {
            for key in 0..<perWriter { #expect(entries["c\(index)-\(key)"] == Plist(key)) }
        }
    }

    /// 200 times, a writer that rewrites 50 keys to one generation number per flush is killed
    /// with SIGKILL at a random moment after its first flush; the file is always a readable binary
    /// property list holding one whole generation: the last one it reported or the one after.
    @Test func killedWriterLeavesOldOrNewState() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        var generator = SystemRandomNumberGenerator()
        for run in 0..<200 {
            let (process, out, _) = try Built.start(
                Built.path("plist-store-probe"), ["churn", "d", "50"], root: root.path)
            defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
            let first = out.fileHandleForReading.availableDataLine()
            #expect(first == Data("1".utf8), "run \(run)")
            usleep(UInt32.random(in: 0...40_000, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let rest = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let reported = ([1] + rest.split(separator: "\n").compactMap { Int($0) }).last!
            let entries = try #require(try root.domain("d").dictionary, "run \(run)")
            let generations = Set(entries.values)
            #expect(entries.count == 50 && generations.count == 1, "run \(run): a torn state \(generations)")
            let generation = entries.values.first?.int ?? -1
            #expect(
                generation == reported || generation == reported + 1,
                "run \(run): file \(generation), reported \(reported)")
        }
    }

    /// SIGTERM, SIGHUP and SIGINT flush only once asked for, and the process still ends by
    /// the signal; a signal the process ignored stays ignored.
    @Test(arguments: [("on", SIGTERM), ("on", SIGINT), ("off", SIGTERM), ("ignore-hup", SIGHUP)])
    func signalsFlushWhenAskedTo(_ mode: String, _ signal: Int32) throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let (process, out, err) = try Built.start(
            Built.path("plist-store-probe"), ["signal", mode, "d", "k"], root: root.path)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        #expect(String(decoding: out.fileHandleForReading.availableDataLine(), as: UTF8.self) == "ready")
        kill(process.processIdentifier, signal)
        if mode == "ignore-hup" {
            usleep(200_000)
            #expect(process.isRunning, "SIGHUP was ignored before, so it stays ignored")
            kill(process.processIdentifier, SIGTERM)
        }
        for _ in 0..<1_000 where process.isRunning { usleep(10_000) }
        try #require(!process.isRunning, "the signal did not end the process")
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == (mode == "ignore-hup" ? SIGTERM : signal))
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        if mode == "off" {
            #expect(!FileManager.default.fileExists(atPath: root.preferences + "/d.plist"), "\(stderr)")
        } else {
            #expect(try root.domain("d") == ["k": 1], "\(stderr)")
        }
    }

    /// Returning from main flushes (atexit), without `synchronize()`.
    @Test func exitFlushes() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let result = try Built.probe(["exit", "d", "k", "(1, 2)"], root: root.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try root.domain("d") == ["k": ["1", "2"]])
    }
}

extension FileHandle {
    /// Bytes up to the next newline (without it), reading one byte at a time.
    func availableDataLine() -> Data {
        var line = Data()
        while true {
            let byte = readData(ofLength: 1)
            if byte.isEmpty || byte == Data([10]) { return line }
            line += byte
        }
    }
}
