import Foundation
import PlistKit
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Inputs are checked by their type before they are read, and their format judged from their
/// first bytes: a FIFO nobody writes to is empty at once, `/dev/zero` is refused, a large file
/// that is no property list is refused unread, and one that is read into memory stays within
/// the read limits. Error messages are one line whatever the keys hold.
@Suite(.timeLimit(.minutes(10))) struct InputTests {
    /// A regular file is read to the size it had when it was opened, whole, in chunks and
    /// scanned, however much is appended while it is read (a file that kept growing kept
    /// `--stream` reading: the chunks and the whole read followed it).
    @Test(arguments: [10, 5_000, 3 << 20]) func aFileIsReadToItsSizeWhenOpened(size: Int) throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let original = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let path = try folder.write(original, to: "growing")
        func appending() throws {
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(repeating: 0x41, count: 2 << 20))
            try handle.close()
        }
        let whole = try PlistInput(path: path)
        try appending()
        let read = Array(try whole.contents(limit: .max))
        // Bools: Testing's description of two unequal large arrays takes minutes.
        let wholeIsOriginal = read == original
        #expect(wholeIsOriginal, "\(read.count) bytes of \(size)")

        _ = try folder.write(original, to: "growing")
        let chunked = try PlistInput(path: path)
        try appending()
        var chunks: [UInt8] = []
        try chunked.readingChunks(chunkSize: 1 << 16) { read throws(PlistError) in
            while case let chunk = try read(), !chunk.isEmpty { chunks += chunk }
        }
        let chunksAreOriginal = chunks == original
        #expect(chunksAreOriginal, "\(chunks.count) bytes of \(size)")

        _ = try folder.write(original, to: "growing")
        let scanned = try PlistInput(path: path)
        try appending()
        var seen: [UInt8] = []
        try scanned.scanning { chunk in for index in chunk.indices { seen.append(chunk[index]) } }
        let scannedIsOriginal = seen == original
        #expect(scannedIsOriginal, "\(seen.count) bytes of \(size)")
    }

    /// A FIFO whose writer comes a little after it is opened (a writer blocked in its own `open`
    /// is woken by ours) is read to its end: it read as an empty input before.
    @Test func aFIFOWhoseWriterComesLateIsRead() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let fifo = folder.path("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            usleep(300_000)
            let fd = open(fifo, O_WRONLY)
            guard fd >= 0 else { return }
            _ = Array("<plist><true/></plist>".utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        writer.start()
        #expect(try Plist(contentsOf: fifo) == true)
    }
    @Test func devicesAreRefusedAndDevNullIsEmpty() throws {
        let plist = try #require(throws: PlistError.self) { try Plist.read(contentsOf: "/dev/zero") }
        let lazy = try #require(throws: PlistError.self) { try BinaryPlistFile(contentsOf: "/dev/zero") }
        let streamed = try #require(throws: PlistError.self) {
            try PlistFile.convertXMLToBinary(at: "/dev/zero", toFile: "/nonexistent/out.plist")
        }
        for error in [plist, lazy, streamed] {
            #expect(error.code == .io && error.message.contains("a character device"), "\(error)")
        }
        #expect(throws: PlistError(.emptyInput, at: 0)) { try Plist(contentsOf: "/dev/null") }
    }

    /// Opening a FIFO for reading waits for a writer: opened non-blocking, one without a writer
    /// is an empty input at once.
    @Test func aFIFOWithoutAWriterIsEmptyAtOnce() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let fifo = folder.path("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: PlistError(.emptyInput, at: 0)) { try Plist(contentsOf: fifo) }
        #expect(throws: PlistError(.emptyInput, at: 0)) { try BinaryPlistFile(contentsOf: fifo) }
    }

    /// The format is judged from the first 4 KiB: a sparse file of 5 GiB of zeros is refused
    /// without being read (nor mapped past them), and a file read into memory is refused before
    /// it is allocated when it is larger than the read limits allow.
    @Test func largeFilesAreJudgedBeforeTheyAreRead() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let sparse = folder.path("sparse")
        #expect(FileManager.default.createFile(atPath: sparse, contents: nil))
        #expect(truncate(sparse, 5 << 30) == 0)
        #expect(throws: PlistError(.unknownFormat, at: 0)) { try Plist(contentsOf: sparse) }
        #expect(throws: PlistError(.badMagic, at: 0)) { try BinaryPlistFile(contentsOf: sparse) }

        // White space (OpenStep) past the limit of 1 KiB + 64 × 16 bytes.
        let spaces = try folder.write([UInt8](repeating: 0x20, count: 4096), to: "spaces.strings")
        let small = PlistReadOptions(maxObjects: 16, maxContentBytes: 1024)
        #expect(throws: PlistError(.inputTooLarge(limit: 2048), at: 0)) {
            try Plist(contentsOf: spaces, options: small)
        }
        #expect(try Plist(contentsOf: spaces) == .dictionary([:]))
    }

    /// What decides the format is the first 4 KiB, and nothing after them.
    @Test func theFormatIsJudgedFromTheFirst4KiB() {
        let blank = [UInt8](repeating: 0x20, count: PlistFormat.detectionLength)
        #expect(PlistFormat.detect(blank + Array("x".utf8)) == .openStep)
        #expect(PlistFormat.detect(blank + [0x00]) == .openStep)
        #expect(PlistFormat.detect(Array(blank.dropLast(7)) + Array("<plist>".utf8)) == .xml)
        #expect(PlistFormat.detect(Array(blank.dropLast(6)) + Array("<plist>".utf8)) == .openStep)
    }

    /// Key paths and keys holding control characters are escaped in messages: one line.
    @Test func messagesAreOneLine() throws {
        let value: Plist = ["a\nb": 1]
        let error = try #require(throws: PlistError.self) {
            try value.value(at: PlistKeyPath(components: ["a\nb", "c"]))
        }
        #expect(error.keyPath == "a\nb")
        #expect(error.message == "the value at key path \"a\\nb\" is an integer, not a dictionary or array")
        let missing = try #require(throws: PlistError.self) {
            try value.value(at: PlistKeyPath(components: ["\u{1B}[2J\u{2028}"]))
        }
        #expect(missing.description == "no value at key path \"\\u{1B}[2J\\u{2028}\"")
        #expect("plain \\n text".escapingControlCharacters == "plain \\n text")
    }
}
