import Foundation
import PlistKit
import TestSupport
import Testing

/// `extract` and `type` read a binary file lazily: only the value at the key path is read. A
/// file whose damage lies in an object elsewhere still answers (where `lint`, which reads it
/// whole, fails; its offset table is checked on opening, as every reader checks it),
/// and a lookup in a file of tens of megabytes runs in a small fraction of the memory the
/// whole-file reader takes for it, measured as the peak RSS of the child process.
@Suite struct LazyCLITests {
    /// `{"good": {"name": "ok", "list": [1, 2, 3]}, "bad": <a string whose marker is no marker>}`.
    static let damaged: [UInt8] = {
        let value: Plist = ["good": ["name": "ok", "list": [1, 2, 3]], "bad": "x"]
        var bytes = (try? value.binaryBytes()) ?? []
        // The string "x" is the last object written: its marker becomes 0x0F, which starts no object.
        let offsetSize = Int(bytes[bytes.count - 26])
        let objectCount = Int(bytes[bytes.count - 17])
        let tableOffset = Int(bytes[bytes.count - 1])
        let entry = tableOffset + (objectCount - 1) * offsetSize
        let offset = bytes[entry..<entry + offsetSize].reduce(0) { $0 << 8 | Int($1) }
        bytes[offset] = 0x0F
        return bytes
    }()

    @Test func extractAndTypeReadOnlyWhatTheyNeed() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let path = try folder.write(Self.damaged, to: "damaged.plist")
        let lint = try Tool.run(["lint", path])
        #expect(lint.status == 1, "the whole-file reader refuses it: \(lint)")
        #expect(lint.stderr.contains("invalid object marker 0x0F"), "\(lint)")
        let quick = try Tool.run(["lint", "--quick", path])
        #expect(quick.status == 1 && quick.stderr == lint.stderr, "\(quick)")
        let sample = Fixtures.url("sample/Info.binary.plist").path
        #expect(try Tool.run(["lint", "--quick", sample]).stdoutText == "\(sample): OK\n")

        #expect(try Tool.run(["extract", "good.name", "raw", path]).stdoutText == "ok\n")
        #expect(try Tool.run(["extract", "good.list", "raw", path]).stdoutText == "3\n")
        #expect(try Tool.run(["extract", "good", "raw", path]).stdoutText == "name\nlist\n")
        #expect(try Tool.run(["extract", "", "raw", path]).stdoutText == "good\nbad\n")
        #expect(try Tool.run(["type", "good.list", path]).stdoutText == "array\n")
        let json = try Tool.run(["extract", "good", "json", path])
        #expect(json.status == 0, "\(json)")
        #expect(try Plist(bytes: json.stdout) == ["name": "ok", "list": [1, 2, 3]])

        let bad = try Tool.run(["extract", "bad", "raw", path])
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("plistconv: \(path): byte "), "\(bad)")
        #expect(bad.stderr.contains("invalid object marker 0x0F"), "\(bad)")
    }

    /// A 51 MB binary file of 8,000 records (and 100 nested arrays): `extract` of one record's field takes far less
    /// memory than the file, while `lint` (the whole-file reader, the peer) takes more than it;
    /// `--stream` converts it to XML, the in-memory conversion's bytes, in a fraction of the
    /// in-memory conversion's memory.
    @Test(.needsPython3, .timeLimit(.minutes(10)))
    func extractRunsInMemoryBoundedByWhatItReads() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        // Written by the benchmarks' generator (Benchmarks/large-inputs.py), scaled down.
        let big = folder.path("big.plist")
        #expect(try LargeInputs.write("binary", to: big, records: 8000, blob: 6400, depth: 100) == 0)
        let small = try folder.write(try Plist.dictionary(["rec1": ["name": "one"]]).binaryBytes(), to: "small.plist")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: big)[.size] as? Int)
        #expect(size > 50_000_000)

        let baseline = try PeakRSS.run(["extract", "rec1.name", "raw", small], output: folder.path("out0"))
        let lazy = try PeakRSS.run(["extract", "rec5678.name", "raw", big], output: folder.path("out1"))
        let whole = try PeakRSS.run(["lint", big], output: folder.path("out2"))
        let quick = try PeakRSS.run(["lint", "--quick", big], output: folder.path("out5"))
        #expect(quick.status == 0 && quick.peakBytes < whole.peakBytes / 2, "quick \(quick), whole \(whole)")
        #expect(baseline.status == 0 && lazy.status == 0 && whole.status == 0, "\(baseline) \(lazy) \(whole)")
        #expect(baseline.peakBytes > 0, "\(baseline)")
        #expect(try folder.read("out1") == Array("record 5678\n".utf8))
        // The lazy lookup touches the top dictionary's keys and one record: a few megabytes.
        #expect(lazy.peakBytes - baseline.peakBytes < size / 4, "lazy \(lazy), baseline \(baseline), file \(size)")
        #expect(whole.peakBytes - baseline.peakBytes > size, "whole \(whole), baseline \(baseline), file \(size)")

        let streamed = try PeakRSS.run(
            ["-f", "xml", "--stream", big, folder.path("streamed.xml")], output: folder.path("out3"))
        let inMemory = try PeakRSS.run(["-f", "xml", big, folder.path("memory.xml")], output: folder.path("out4"))
        #expect(streamed.status == 0 && inMemory.status == 0, "\(streamed) \(inMemory)")
        #expect(try folder.read("streamed.xml") == (try folder.read("memory.xml")))
        #expect(streamed.peakBytes - baseline.peakBytes < size / 2, "streamed \(streamed), baseline \(baseline)")
        #expect(inMemory.peakBytes - baseline.peakBytes > 2 * size, "in memory \(inMemory), baseline \(baseline)")
    }

    /// `extract` of a key at the start, in the middle and at the end of a wide top-level
    /// dictionary (the benchmarks' generator, scaled down), lazily, gives the value the
    /// whole-file reader finds there (issue 47 item 4: the lazy lookup reads the keys it probes
    /// with `pread` instead of through the mapping).
    @Test(.needsPython3) func lazyExtractAgreesWithTheWholeReadWhereverTheKeySits() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let path = folder.path("wide.plist")
        #expect(try LargeInputs.write("binary", to: path, records: 3000, blob: 100, depth: 3) == 0)
        let whole = try Plist(bytes: try folder.read("wide.plist"))
        #expect(whole.dictionary?.count == 3001)
        for keyPath in ["rec0", "rec1", "rec1500", "rec1500.name", "rec2999", "rec2999.tags", "deep"] {
            let extracted = try Tool.run(["extract", keyPath, "xml", path])
            #expect(extracted.status == 0, "\(keyPath): \(extracted)")
            let expected = try whole.value(at: PlistKeyPath(parsing: keyPath))
            let same = (try? Plist(bytes: extracted.stdout)) == expected
            #expect(same, "\(keyPath)")
        }
        let raw = try Tool.run(["extract", "rec0.id", "raw", path])
        #expect(raw.stdoutText == "0\n", "\(raw)")
        let missing = try Tool.run(["extract", "rec3000.id", "raw", path])
        #expect(missing.status == 1 && missing.stderr.contains("rec3000"), "\(missing)")
    }

    @Test func streamingMatchesTheInMemoryConversion() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        for (index, input) in ([Fixtures.url("sample/Info.binary.plist").path] + BinaryFiles.fixtures).enumerated() {
            let streamed = try Tool.run(["-f", "xml", "--stream", input, folder.path("s\(index).xml")])
            let inMemory = try Tool.run(["-f", "xml", input, folder.path("m\(index).xml")])
            #expect(streamed.status == 0 && inMemory.status == 0, "\(streamed) \(inMemory)")
            #expect(try folder.read("s\(index).xml") == (try folder.read("m\(index).xml")), "\(input)")
            let toStdout = try Tool.run(["convert", "-f", "xml", "--stream", "-o", "-", input])
            #expect(toStdout.stdout == (try folder.read("m\(index).xml")))
        }
    }

    /// A failed streaming conversion says why and where, and leaves no output (an existing
    /// output file keeps its bytes).
    @Test func failedStreamingLeavesNoOutput() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let damaged = try folder.write(Self.damaged, to: "damaged.plist")
        let run = try Tool.run(["-f", "xml", "--stream", damaged, folder.path("out.xml")])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("plistconv: \(damaged): byte "), "\(run)")
        #expect(run.stderr.contains("invalid object marker 0x0F"), "\(run)")
        try folder.write(Array("old".utf8), to: "old.xml")
        let again = try Tool.run(["-f", "xml", "--stream", damaged, folder.path("old.xml")])
        #expect(again.status == 1)
        #expect(try folder.names() == ["damaged.plist", "old.xml"])
        #expect(try folder.read("old.xml") == Array("old".utf8))

        let sample = Fixtures.url("sample/Info.binary.plist").path
        let limited = try Tool.run(["-f", "xml", "--stream", "--max-output-bytes", "300", sample, folder.path("l.xml")])
        #expect(limited.status == 1)
        #expect(limited.stderr.contains("larger than 300 bytes"), "\(limited)")
        #expect(try folder.names() == ["damaged.plist", "old.xml"])
        // What cannot stream is converted in memory, with the same result.
        let text = try Tool.run([
            "-f", "xml", "--stream", Fixtures.url("valid/scalars.xml.plist").path, folder.path("t.xml"),
        ])
        #expect(text.status == 0, "\(text)")
        #expect(try folder.names() == ["damaged.plist", "old.xml", "t.xml"])
        let usage = try Tool.run(["-f", "json", "--stream", sample, folder.path("j.json")])
        #expect(usage.status == 64, "\(usage)")
    }
}

/// The repository's valid binary fixtures.
enum BinaryFiles {
    static let fixtures: [String] = {
        let folder = Fixtures.url("valid").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let files = names.filter { $0.contains(".binary.") }.sorted().map { folder + "/" + $0 }
        precondition(files.count >= 4, "Fixtures/valid has binary files")
        return files
    }()
}

/// Runs the built `plistconv` as a child process and measures its peak resident memory.
///
/// The child is forked by a small Python process, which reports `ru_maxrss` from `wait4`: a
/// process started straight from the test runner would inherit the runner's own peak (Linux
/// records the peak of the memory a process replaces at `exec`, and `posix_spawn` starts the
/// child in the runner's memory).
enum PeakRSS {
    struct Result: CustomStringConvertible {
        var status: Int32
        var peakBytes: Int
        var description: String { "exit \(status), peak \(peakBytes / 1024) KiB" }
    }

    static let script = """
        import os, sys
        out = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        pid = os.fork()
        if pid == 0:
            os.dup2(out, 1)
            os.execv(sys.argv[2], sys.argv[2:])
        _, status, usage = os.wait4(pid, 0)
        scale = 1 if sys.platform == "darwin" else 1024
        print(os.waitstatus_to_exitcode(status), usage.ru_maxrss * scale)
        """

    static func run(_ arguments: [String], output: String) throws -> Result {
        let executable = try Tool.location.get().path
        let python = try #require(Oracles.python3)
        let process = Process()
        process.executableURL = python
        process.arguments = ["-c", script, output, executable] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let report = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let fields = report.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard fields.count == 2 else { throw POSIXError(.EIO) }
        return Result(status: Int32(fields[0]), peakBytes: fields[1])
    }
}
