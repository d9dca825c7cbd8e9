import Foundation
import PlistKit
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every path `plistconv` can take to read an input (in memory, `--stream` either way, the
/// automatic switch at 64 MiB, `lint`, `lint --quick`, lazy `extract` and `type`) gives the
/// in-memory verdict, in one line, without waiting or allocating without bound, run as a real
/// process. One test per case of issue 35; `PathAgreementTests` compares every path on many
/// inputs in-process.
@Suite(.timeLimit(.minutes(10))) struct OneVerdictCLITests {
    // MARK: - Binary files that the streaming and quick paths used to read differently

    /// A binary file of `objects` (their encoded bytes; the first is the top), with references
    /// of `referenceSize` bytes and, after the objects' own, the offset-table entries `extra`.
    static func bplist(_ objects: [[UInt8]], referenceSize: Int = 1, extra: [Int] = []) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        offsets += extra
        let tableOffset = bytes.count
        let offsetSize = tableOffset < 256 ? 1 : 2
        for offset in offsets { bytes += bigEndian(offset, offsetSize) }
        bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        bytes += bigEndian(offsets.count, 8) + bigEndian(0, 8) + bigEndian(tableOffset, 8)
        return bytes
    }

    static func bigEndian(_ value: Int, _ width: Int) -> [UInt8] {
        (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * (width - 1 - $0))) }
    }

    /// A container marker for `count` items (`count` below 256 or 65,536 after 0xF).
    static func marker(_ base: UInt8, _ count: Int) -> [UInt8] {
        if count < 15 { return [base | UInt8(count)] }
        return count < 256 ? [base | 0x0F, 0x10, UInt8(count)] : [base | 0x0F, 0x11] + bigEndian(count, 2)
    }

    /// 25 KB: an array of 4,200 references to one dictionary whose 4,200 entries all have the key
    /// "k". Read whole it stands for 17.6 million values, past the limit of 2^24: refused at
    /// once. The streaming and quick paths read every key of every use of the dictionary, in
    /// seconds, then said OK (at 300 KB, about 25 minutes).
    static let repeatedKeyInASharedDictionary: [UInt8] = {
        let count = 4200
        let twoBytes = { (refs: [Int]) in refs.flatMap { bigEndian($0, 2) } }
        return bplist(
            [
                marker(0xA0, count) + twoBytes(Array(repeating: 1, count: count)),
                marker(0xD0, count) + twoBytes(Array(repeating: 2, count: count) + Array(repeating: 3, count: count)),
                [0x51, UInt8(ascii: "k")], [0x10, 1],
            ], referenceSize: 2)
    }()

    private func expectSameVerdict(_ name: String, _ bytes: [UInt8], _ commands: [[String]]) throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let path = try folder.write(bytes, to: "\(name).plist")
        let reference = try Tool.run(["-f", "xml", path, folder.path("memory.xml")])
        let lint = try Tool.run(["lint", path])
        for command in commands {
            let run = try Tool.run(command.map { $0 == "IN" ? path : $0 == "OUT" ? folder.path("out.xml") : $0 })
            let expected = command.first == "lint" ? lint : reference
            #expect(run.status == expected.status && run.stderr == expected.stderr, "\(name) \(command): \(run)")
        }
    }

    @Test func aSharedDictionaryRepeatingOneKeyIsRefusedAsInMemory() throws {
        let bytes = Self.repeatedKeyInASharedDictionary
        #expect(bytes.count < 30_000)
        try expectSameVerdict(
            "repeated", bytes,
            [["lint", "--quick", "IN"], ["-f", "xml", "--stream", "IN", "OUT"]])
        let error = try #require(throws: PlistError.self) { try Plist(binary: bytes) }
        #expect(error.kind == .tooManyObjects(limit: 1 << 24))
    }

    /// `{"CF$UID": 5}` in binary is a dictionary, which XML would read back as a UID: the
    /// in-memory path refuses to write it, and so does streaming (which wrote the UID, exit 0).
    @Test func aCFUIDDictionaryIsRefusedWhenStreamedAsInMemory() throws {
        let bytes = Self.bplist([[0xD1, 1, 2], [0x56] + Array("CF$UID".utf8), [0x10, 5]])
        try expectSameVerdict("uid", bytes, [["-f", "xml", "--stream", "IN", "OUT"], ["lint", "--quick", "IN"]])
        let folder = try TempFolder()
        defer { folder.remove() }
        let run = try Tool.run([
            "-f", "xml", "--stream", try folder.write(bytes, to: "uid.plist"), folder.path("o.xml"),
        ])
        #expect(run.status == 1 && run.stderr.contains("which XML cannot hold"), "\(run)")
    }

    /// Damage that only the whole-file reader read: the value a repeated key replaces, and an
    /// offset-table entry that no object uses.
    @Test func damageTheStreamingPathsDidNotReadIsRefused() throws {
        // {"a": <0x0F, no marker>, "a": 1}
        let replaced = Self.bplist([[0xD2, 1, 1, 2, 3], [0x51, UInt8(ascii: "a")], [0x0F], [0x10, 1]])
        // [1], and a third offset-table entry past the object area.
        let unused = Self.bplist([[0xA1, 1], [0x10, 1]], extra: [200])
        for (name, bytes) in [("replaced", replaced), ("unused", unused)] {
            #expect(throws: PlistError.self) { try Plist(binary: bytes) }
            try expectSameVerdict(
                name, bytes, [["lint", "--quick", "IN"], ["-f", "xml", "--stream", "IN", "OUT"]])
        }
    }

    /// 2^64 leaves in a kilobyte: refused with the in-memory error before anything is written
    /// (streaming wrote 256 MiB to a temporary file first).
    @Test func aFanOutIsRefusedBeforeAnythingIsWritten() throws {
        var value: Plist = 1
        for _ in 0..<64 { value = [value, value] }
        let bytes = try value.binaryBytes()
        #expect(bytes.count < 2048)
        try expectSameVerdict("fan-out", bytes, [["-f", "xml", "--stream", "IN", "OUT"], ["lint", "--quick", "IN"]])
    }

    // MARK: - Format detection, pipes and the automatic switch

    /// The bytes used to detect the format are kept: through a pipe named as a path, a binary
    /// file converts, and junk before one fails as in memory (it converted, exit 0).
    @Test func aPipeLosesNoBytes() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let sample = try Data(contentsOf: Fixtures.url("sample/Info.binary.plist"))
        let good = try Tool.run(
            ["-f", "xml", "--stream", "/dev/stdin", folder.path("good.xml")], stdin: [UInt8](sample))
        #expect(good.status == 0, "\(good)")
        #expect(try Plist(xml: try folder.read("good.xml")) == (try Plist(binary: [UInt8](sample))))
        let junk = Array("JUNKJUNK".utf8) + sample
        let inMemory = try Tool.run(["-f", "xml", "-", folder.path("m.xml")], stdin: junk)
        let streamed = try Tool.run(["-f", "xml", "--stream", "/dev/stdin", folder.path("s.xml")], stdin: junk)
        #expect(inMemory.status == 1, "\(inMemory)")
        #expect(streamed.status == 1, "\(streamed)")
        #expect(streamed.stderr == inMemory.stderr.replacingOccurrences(of: "<stdin>", with: "/dev/stdin"))
    }

    /// Text that explicit `--stream` read otherwise than the in-memory path: references to
    /// control characters (which our XML writer writes), a NUL after `</plist>`, a leading
    /// processing instruction other than `<?xml` (OpenStep text, in memory).
    @Test(arguments: [
        (
            "reference",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<string>a&#8;b</string>\n</plist>\n"
        ),
        (
            "nul",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<string>ab</string>\n</plist>\n\0junk"
        ),
        ("instruction", "<?other?>\n<plist version=\"1.0\">\n<string>ab</string>\n</plist>\n"),
    ])
    func explicitStreamingGivesTheInMemoryVerdict(name: String, text: String) throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let path = try folder.write(Array(text.utf8), to: "\(name).xml")
        let inMemory = try Tool.run(["-f", "binary", path, folder.path("m.plist")])
        let streamed = try Tool.run(["-f", "binary", "--stream", path, folder.path("s.plist")])
        #expect(streamed.status == inMemory.status && streamed.stderr == inMemory.stderr, "\(streamed) \(inMemory)")
        #expect(inMemory.status == (name == "instruction" ? 1 : 0), "\(inMemory)")
        if inMemory.status == 0 {
            #expect(try Plist(binary: try folder.read("s.plist")) == (try Plist(binary: try folder.read("m.plist"))))
        }
    }

    /// Inputs whose verdict changed at 64 MiB, where the conversion switched to streaming by
    /// itself: OpenStep data starting with `<`, UTF-16LE XML without a byte-order mark, XML
    /// with a NUL after `</plist>`. Padded to 64 MiB, each gives the result (the same message,
    /// at the place the padding moves) it gives padded to one unit less, in memory; the OpenStep
    /// text, which takes the longest to read, is compared with itself padded to 1 KiB. (The
    /// padding: a NUL and zeros, which libxml2 ignores; for OpenStep, spaces after an error
    /// right after the data; for UTF-16, line ends, which libxml2 refuses past 10 MB in memory.)
    @Test func theSwitchToStreamingAt64MiBChangesNoVerdict() throws {
        let threshold = 64 << 20
        let folder = try TempFolder()
        defer { folder.remove() }
        let xml = "<plist version=\"1.0\">\n<array><string>a</string><integer>1</integer></array>\n</plist>\n"
        let utf16 = Array(xml.utf16).flatMap { [UInt8(truncatingIfNeeded: $0), UInt8($0 >> 8)] }
        let cases: [(name: String, document: [UInt8], padding: [UInt8], reference: Int, converts: Bool)] = [
            ("openstep", Array("<0fbd 7777> ;".utf8), [0x20], 1024, false),
            ("utf16le", utf16, [0x0A, 0x00], threshold - 2, false),
            ("nul", Array(xml.utf8) + [0], [0], threshold - 1, true),
        ]
        for (name, document, padding, reference, converts) in cases {
            var runs: [Output] = []
            for size in [reference, threshold] {
                // The padding unit, one byte or a UTF-16 code unit, repeated in one allocation.
                let units = (size - document.count) / padding.count
                var fill: [UInt8]
                if padding.count == 1 {
                    fill = [UInt8](repeating: padding[0], count: units)
                } else {
                    let pairs = [UInt16](repeating: UInt16(padding[0]) | UInt16(padding[1]) << 8, count: units)
                    fill = [UInt8](unsafeUninitializedCapacity: 2 * units) { buffer, count in
                        pairs.withUnsafeBytes { UnsafeMutableRawBufferPointer(buffer).copyMemory(from: $0) }
                        count = 2 * units
                    }
                }
                let path = try folder.write(document + fill, to: name)
                var run = try Tool.run(["-f", "binary", path, folder.path("\(name).out")])
                // The same message; its line and column follow the padding.
                run.stderr = run.stderr.replacingOccurrences(of: path, with: name)
                    .replacingOccurrences(of: #": [0-9]+:[0-9]+: "#, with: ": ", options: .regularExpression)
                runs.append(run)
                if run.status == 0 {
                    #expect(try Plist(binary: try folder.read("\(name).out")) == ["a", 1], "\(name)")
                }
                try FileManager.default.removeItem(atPath: path)
            }
            #expect(runs[0].status == (converts ? 0 : 1), "\(name): \(runs[0])")
            #expect(runs[1].status == runs[0].status, "\(name): \(runs)")
            #expect(runs[1].stderr == runs[0].stderr, "\(name)")
        }
    }

    // MARK: - Messages

    @Test func streamingMessagesAreTheInMemoryOnes() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        // A date XML cannot hold, at key path "0": not "the top-level value".
        let date = try Plist.array([.date(Date(timeIntervalSinceReferenceDate: -1e20))]).binaryBytes()
        let datePath = try folder.write(date, to: "date.plist")
        let streamed = try Tool.run(["-f", "xml", "--stream", datePath, folder.path("d.xml")])
        let inMemory = try Tool.run(["-f", "xml", datePath, folder.path("d.xml")])
        #expect(streamed.stderr == inMemory.stderr && streamed.status == 1, "\(streamed)")
        #expect(streamed.stderr.contains("the value at key path \"0\""), "\(streamed)")
        // UTF-16 XML is converted in memory, not refused as "converted in memory".
        let xml = try Plist.array(["a"]).xmlBytes()
        let units = String(decoding: xml, as: UTF8.self).utf16.flatMap {
            [UInt8(truncatingIfNeeded: $0), UInt8($0 >> 8)]
        }
        let utf16: [UInt8] = [0xFF, 0xFE] + units
        let utf16Path = try folder.write(utf16, to: "utf16.xml")
        let converted = try Tool.run(["-f", "binary", "--stream", utf16Path, folder.path("u.plist")])
        #expect(converted.status == 0, "\(converted)")
        // A missing input is missing, not of an unknown format.
        for format in ["binary", "xml"] {
            let missing = try Tool.run(["-f", format, "--stream", folder.path("missing"), folder.path("m")])
            #expect(missing.stderr == "plistconv: \(folder.path("missing")): No such file or directory\n", "\(missing)")
        }
    }

    /// Keys and file names holding a newline or an escape are printed escaped: one line per
    /// error, whatever the input holds.
    @Test func errorsAreOneLine() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let key = "a\nplistconv: forged\u{1B}[2K"
        let escaped = "a\\nplistconv: forged\\u{1B}[2K"
        let value: Plist = .dictionary([key: .date(Date(timeIntervalSinceReferenceDate: -1e20))])
        let path = try folder.write(try value.binaryBytes(), to: "keys.plist")
        for arguments in [
            ["-f", "xml", "--stream", path, folder.path("o.xml")], ["-f", "xml", path, folder.path("o.xml")],
            ["extract", "\(key).missing", "raw", path], ["type", "b\nc", path],
        ] {
            let run = try Tool.run(arguments)
            #expect(run.status == 1 && run.stderr.split(separator: "\n").count == 1, "\(arguments): \(run)")
            #expect(!run.stderr.dropLast().contains { $0.isNewline || $0 == "\u{1B}" }, "\(run)")
        }
        let streamed = try Tool.run(["-f", "xml", "--stream", path, folder.path("o.xml")])
        #expect(streamed.stderr.contains("key path \"\(escaped)\""), "\(streamed)")
        let name = folder.path("missing\n\u{1B}[1m.plist")
        let missing = try Tool.run(["lint", name])
        #expect(
            missing.stderr == "plistconv: \(folder.path("missing\\n\\u{1B}[1m.plist")): No such file or directory\n")
    }

    // MARK: - Special files

    /// `/dev/zero`, a FIFO nobody writes to and a 5 GiB sparse file: one line and exit 1 at once
    /// for every command, within 1 GiB of data (`ulimit -d`), where they ended in SIGILL
    /// ("unable to allocate memory") or waited forever.
    @Test func specialFilesAreRefusedAtOnce() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let fifo = folder.path("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let sparse = folder.path("sparse")
        #expect(FileManager.default.createFile(atPath: sparse, contents: nil))
        #expect(truncate(sparse, 5 << 30) == 0)
        let tool = try Tool.location.get().path
        for input in ["/dev/zero", fifo, sparse] {
            for command in [
                ["extract", "a", "raw", input], ["type", "a", input], ["lint", "--quick", input],
                ["-f", "xml", "--stream", input, folder.path("out")],
                ["-f", "binary", "--stream", input, folder.path("out")],
            ] {
                let run = try Tool.run(
                    ["-c", "ulimit -d 1048576 && exec \"$0\" \"$@\"", tool] + command, executable: "/bin/sh")
                #expect(run.status == 1, "\(command): \(run)")
                #expect(run.stderr.hasPrefix("plistconv: \(input): ") && run.stderr.split(separator: "\n").count == 1)
            }
        }
        let zero = try Tool.run(["-c", "exec \"$0\" lint - </dev/zero", tool], executable: "/bin/sh")
        #expect(zero.status == 1 && zero.stderr.contains("a character device"), "\(zero)")
        #expect(try folder.names() == ["fifo", "sparse"])
    }

    /// The commands that read a file's bytes (`merge`'s versions, PlistBuddy's `Import`) open
    /// it as every other input is opened: `/dev/zero`, a FIFO without a writer and a 5 GiB
    /// sparse file are one line at once (they were opened blocking and read without a limit;
    /// `timeout` turns a wait into a failure here).
    @Test func commandsThatReadBytesCheckTheirInputsToo() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        #expect(mkfifo(folder.path("fifo"), 0o600) == 0)
        let sparse = folder.path("sparse")
        #expect(FileManager.default.createFile(atPath: sparse, contents: nil))
        #expect(truncate(sparse, 5 << 30) == 0)
        let empty = try folder.write([], to: "empty")
        let good = try folder.write(Array("{a=1;}".utf8), to: "good.plist")
        let tool = try Tool.location.get().path
        func run(_ command: [String]) throws -> Output {
            try Tool.run(
                ["-c", "ulimit -d 1048576 && exec timeout 20 \"$0\" \"$@\"", tool] + command, in: folder.url,
                executable: "/bin/sh")
        }
        // Relative names: PlistBuddy's command line splits at spaces.
        for input in ["/dev/zero", "fifo", "sparse"] {
            let merge = try run(["merge", empty, input, good])
            #expect(merge.status == 2, "\(merge)")
            #expect(merge.stderr.hasPrefix("plistconv: \(input): ") && merge.stderr.split(separator: "\n").count == 1)
            guard input != "fifo" else { continue }  // an empty input, imported as empty data
            let buddy = try run(["buddy", "-c", "Import k \(input)", good])
            #expect(buddy.status == 1 && buddy.stderr.hasPrefix("Error Reading File: \(input): "), "\(buddy)")
            #expect(buddy.stderr.split(separator: "\n").count == 1, "\(buddy)")
        }
    }
}
