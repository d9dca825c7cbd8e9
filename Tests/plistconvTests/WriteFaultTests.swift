import Foundation
import PlistKit
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes that fail part-way, as real `plistconv` processes: killed at random moments, racing
/// each other, stopped by the file-size limit or a folder that cannot be written, and reading
/// an input that is truncated under them. The output is always a whole old or new file, no
/// temporary file stays, and failures are one clear line with exit status 1.
@Suite(.serialized, .timeLimit(.minutes(10))) struct WriteFaultTests {
    /// Two different values, large enough that writing one takes a while (about 170 KB of XML).
    static let values: [Plist] = (0..<2).map { variant in
        .array(
            (0..<1_000).map { index in
                [
                    "index": .integer(PlistInteger(index)), "variant": .integer(PlistInteger(variant)),
                    "name": .string("item \(index) of \(variant)"),
                    "payload": .data(Data(repeating: UInt8(variant), count: 64)),
                ]
            })
    }

    /// Whether `bytes` are one complete conversion of one of `values`.
    static func isWhole(_ bytes: [UInt8]) -> Bool {
        guard let value = try? Plist(bytes: bytes) else { return false }
        return values.contains(value)
    }

    static func temporaryFiles(in folder: TempFolder) throws -> [String] {
        try folder.names().filter { $0.hasSuffix(".tmp") }
    }

    /// Starts `plistconv arguments` with no output captured.
    static func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = try Tool.location.get()
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test func killedConversionsLeaveTheOldOrTheNewFileAndTheirTemporaryFilesAreCleaned() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let inputs = try Self.values.enumerated().map { try folder.write($1.binaryBytes(), to: "in\($0).plist") }
        let out = folder.path("out.plist")
        // How long one conversion takes here: the kills fall anywhere in it.
        let started = Date()
        #expect(try Tool.run(["-f", "xml", inputs[0], out]).status == 0)
        let duration = Date().timeIntervalSince(started)
        var random = SeededRandom(seed: 27)
        var killed = 0
        for round in 0..<200 {
            let process = try Self.start(["-f", round % 3 == 0 ? "binary" : "xml", inputs[round % 2], out])
            usleep(UInt32(Double.random(in: 0...(duration * 1.2), using: &random) * 1_000_000))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                killed += 1
            }
            process.waitUntilExit()
            #expect(Self.isWhole(try folder.read("out.plist")), "round \(round): the output is torn")
            let temporary = try Self.temporaryFiles(in: folder)
            // Each write removes what killed writes left; only the last kill's file can be there.
            #expect(temporary.count <= 1, "round \(round): \(temporary)")
        }
        #expect(killed >= 50, "only \(killed) of 200 conversions were killed before they ended")
        #expect(try Tool.run(["-f", "xml", inputs[1], out]).status == 0)
        #expect(try Self.temporaryFiles(in: folder) == [])
        #expect(try Plist(contentsOf: out) == Self.values[1])
    }

    @Test func twoProcessesWritingOneOutputLeaveOneWholeOutput() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let inputs = try Self.values.enumerated().map { try folder.write($1.binaryBytes(), to: "in\($0).plist") }
        let out = folder.path("out.plist")
        for round in 0..<10 {
            let pair = try [0, 1].map {
                try Self.start(["-f", round.isMultiple(of: 2) ? "xml" : "binary", inputs[$0], out])
            }
            for process in pair {
                process.waitUntilExit()
                #expect(process.terminationStatus == 0)
            }
            #expect(Self.isWhole(try folder.read("out.plist")), "round \(round)")
            #expect(try Self.temporaryFiles(in: folder) == [], "round \(round)")
        }
    }

    /// Past `ulimit -f` the write fails with EFBIG (plistconv ignores SIGXFSZ, which would kill
    /// it silently): one line, status 1, the old file intact, no temporary file.
    @Test func theFileSizeLimitLeavesTheOldFile() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let input = try folder.write(try Self.values[0].binaryBytes(), to: "in.plist")
        let old = Array("old\n".utf8)
        let out = try folder.write(old, to: "out.xml")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // 64 blocks of 512 bytes: far less than the XML.
        process.arguments = [
            "-c", "ulimit -f 64 && exec \"$0\" -f xml \"$1\" \"$2\"", try Tool.location.get().path, input, out,
        ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 1, "\(message)")
        #expect(message == "plistconv: \(out): File too large\n")
        #expect(try folder.read("out.xml") == old)
        #expect(try Self.temporaryFiles(in: folder) == [])
    }

    /// A folder that cannot be written (here one in sysfs, which even root cannot create files
    /// in; without root, also a folder without write permission, holding the old output).
    @Test func anUnwritableFolderIsOneClearLine() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let input = try folder.write(try Self.values[0].binaryBytes(), to: "in.plist")
        let sys = try Tool.run(["-f", "xml", input, "/sys/plistconv-test.xml"])
        #expect(sys.status == 1 && sys.stderr.hasPrefix("plistconv: /sys/plistconv-test.xml: "), "\(sys)")
        #expect(sys.stderr.split(separator: "\n").count == 1)
        guard getuid() != 0 else { return }
        let old = Array("old\n".utf8)
        let out = try folder.write(old, to: "out.xml")
        chmod(folder.url.path, 0o555)
        defer { chmod(folder.url.path, 0o755) }
        let run = try Tool.run(["-f", "xml", input, out])
        #expect(run.status == 1 && run.stderr == "plistconv: \(out): Permission denied\n", "\(run)")
        #expect(try folder.read("out.xml") == old)
        #expect(try Self.temporaryFiles(in: folder) == [])
    }

    /// An input truncated while it is read: a clean error or the value, never a crash (a
    /// memory-mapped input would raise SIGBUS on the pages cut off).
    @Test func anInputTruncatedWhileReadIsACleanError() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let big = Plist.array(Array(repeating: Self.values[0], count: 12))
        let bytes = try big.xmlBytes()  // about 2 MB
        let input = folder.path("in.xml")
        var random = SeededRandom(seed: 5)
        var outcomes: [Int32: Int] = [:]
        for _ in 0..<10 {
            _ = try folder.write(bytes, to: "in.xml")
            let process = try Self.start(["lint", "-s", input])
            usleep(UInt32.random(in: 0...20_000, using: &random))
            truncate(input, off_t(Int.random(in: 0..<bytes.count / 2, using: &random)))
            process.waitUntilExit()
            #expect(process.terminationReason == .exit, "killed by signal \(process.terminationStatus)")
            outcomes[process.terminationStatus, default: 0] += 1
        }
        #expect(Set(outcomes.keys).isSubset(of: [0, 1]), "\(outcomes)")
    }
}
