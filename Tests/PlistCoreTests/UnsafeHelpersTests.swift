import Foundation
import Testing

@testable import PlistCore

/// The few helpers that use unsafe code, against their safe equivalents.
@Suite struct UnsafeHelpersTests {
    /// A `Data` adopting an array holds its bytes, stays valid after the array is gone, and
    /// copies on write like any `Data`.
    @Test func dataAdoptingAnArrayHoldsItsBytes() {
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var adopted = Data(adopting: Array(bytes))
        #expect(adopted == Data(bytes))
        let copy = adopted
        adopted[0] = 0xFF
        adopted.append(contentsOf: [1, 2, 3])
        #expect(copy == Data(bytes))
        #expect(adopted.count == bytes.count + 3 && adopted.first == 0xFF)
        #expect(Data(adopting: []).isEmpty)
    }

    /// Words read from a span are its bytes, little-endian, at every offset.
    @Test func wordsAreTheBytesLittleEndian() {
        let bytes: [UInt8] = Array(1...20)
        let span = bytes.span
        for offset in 0...(bytes.count - 8) {
            let expected = bytes[offset..<offset + 8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            #expect(span.word(at: offset) == expected)
        }
    }

    /// Half-words read from a span are its bytes, little-endian, at every offset.
    @Test func halfWordsAreTheBytesLittleEndian() {
        let bytes: [UInt8] = Array(1...12)
        for offset in 0...(bytes.count - 4) {
            let expected = bytes[offset..<offset + 4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            #expect(bytes.span.halfWord(at: offset) == expected)
        }
    }

    /// The seeded hash reads its tail with overlapping loads: at every length up to 40, equal
    /// bytes (at any place in a larger span) hash alike, and changing any one byte changes the
    /// hash.
    @Test func seededHashCountsEveryByte() {
        var changed = 0
        var compared = 0
        for count in 0...40 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ count) }
            let hash = SeededHash.bytes(bytes.span)
            let padded = [0xAA] + bytes + [0x55]
            #expect(SeededHash.bytes(padded.span.extracting(1..<count + 1)) == hash)
            for index in 0..<count {
                for flip: UInt8 in [0x01, 0x80, 0xFF] {
                    var other = bytes
                    other[index] ^= flip
                    compared += 1
                    if SeededHash.bytes(other.span) != hash { changed += 1 }
                }
            }
        }
        #expect(compared == 2_460)
        #expect(changed == compared)
    }

    /// `isASCII` reads eight bytes at a time and its last bytes as overlapping loads: at every
    /// length up to 40 (inside a larger span) and with one byte above 0x7F at every place, it
    /// says what a test of each byte says.
    @Test func isASCIIAgreesWithATestOfEachByte() {
        var agreed = 0
        for count in 0...40 {
            let bytes = (0..<count).map { UInt8(0x20 + $0) }
            let padded = [0xFF] + bytes + [0xFF]
            let inside = padded.span.extracting(1..<count + 1).isASCII
            #expect(inside)
            for index in 0..<count {
                for high: UInt8 in [0x80, 0xC3, 0xFF] {
                    var other = padded
                    other[index + 1] = high
                    let span = other.span.extracting(1..<count + 1)
                    if !span.isASCII, span.isASCII == bytes.indices.allSatisfy({ span[$0] < 0x80 }) { agreed += 1 }
                }
            }
        }
        #expect(agreed == 3 * (0...40).reduce(0, +))
    }

    /// A string made of bytes known to be ASCII is the string they decode to, small (up to 15
    /// bytes) or not, and knows it is ASCII.
    @Test func checkedASCIIStringsAreTheirBytes() {
        for count in 0...40 {
            let bytes = (0..<count).map { UInt8(0x21 + $0 % 90) }
            let string = String(checkedASCII: bytes.span)
            #expect(string == String(decoding: bytes, as: UTF8.self))
            let knownASCII = string.utf8Span.isKnownASCII
            #expect(knownASCII)
        }
    }

    /// Large-capacity arrays are ordinary empty arrays with room for what was asked, small or
    /// large, and grow keeping their elements.
    @Test(arguments: [0, 1, 1_000, 3 << 20])
    func largeCapacityArraysAreOrdinaryArrays(count: Int) {
        var words = [UInt64](largeCapacity: count)
        #expect(words.isEmpty && words.capacity >= count)
        words.append(contentsOf: (0..<UInt64(count)).map { $0 &* 0x9E37_79B9 })
        words.reserveLarge(adding: 10)
        #expect(words.capacity >= count + 10)
        words.append(7)
        #expect(words == (0..<UInt64(count)).map { $0 &* 0x9E37_79B9 } + [7])
        #expect([Int32](largeRepeating: -1, count: count) == Array(repeating: -1, count: count))
    }

    /// Growing keeps the elements; a buffer of 4 MB to 64 MB grows eightfold (fewer copies into
    /// fresh pages), a smaller or larger one doubles.
    @Test(arguments: [(1 << 20, 2), (4 << 20, 8), (63 << 20, 8), (64 << 20, 2)])
    func largeArraysGrowEightfoldBetween4And64MB(size: Int, factor: Int) {
        var bytes = [UInt8](largeCapacity: size)
        bytes.append(contentsOf: [UInt8](repeating: 0xA5, count: bytes.capacity - 1))
        bytes.reserveLarge(adding: 1)
        let full = bytes.capacity
        bytes.append(0x5A)
        bytes.reserveLarge(adding: 1)
        #expect(bytes.capacity >= factor * full && bytes.capacity < 2 * factor * full)
        #expect(
            bytes.count == full
                && [bytes[0], bytes[full / 2], bytes[full - 2], bytes[full - 1]] == [0xA5, 0xA5, 0xA5, 0x5A])
    }

    #if os(Linux)
    /// On Linux with transparent huge pages available, a large array's storage is in a mapping
    /// the kernel was asked to back with 2 MB pages (flag `hg` in /proc/self/smaps).
    @Test func largeArraysAskForHugePages() throws {
        let setting = try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8)
        guard let setting, !setting.contains("[never]") else { return }
        let words = [UInt64](largeCapacity: 4 << 20)
        let middle = words.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } + (16 << 20)
        // Read to the end: the file's size is reported as 0.
        let file = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps"))
        let smaps = String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
        var inMapping = false
        var flags: String?
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
                let bounds = range.split(separator: "-").compactMap { UInt($0, radix: 16) }
                inMapping = bounds.count == 2 && bounds[0] <= middle && middle < bounds[1]
            } else if inMapping, line.hasPrefix("VmFlags:") {
                flags = String(line)
            }
        }
        #expect(flags?.split(separator: " ").contains("hg") == true, "\(flags ?? "no mapping")")
        #expect(words.isEmpty)
    }
    #endif
}
