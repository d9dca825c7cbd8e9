import Foundation
import PlistCore
import TestSupport
import Testing

/// The binary reader and both writers against hostile input: every truncation and every byte
/// corruption of a small file, every trailer field out of range, fan-out bombs and shared trees.
@Suite struct BinaryHostileTests {
    /// `{"key": [1, "text", 2.5, true], "data": <00ff>}`: every common object kind in 79 bytes.
    static let small: [UInt8] = {
        var builder = BinaryBuilder(objects: [])
        builder.objects = [
            builder.container(0xD0, [1, 2, 3, 4]), BinaryBuilder.ascii("key"), BinaryBuilder.ascii("data"),
            builder.container(0xA0, [5, 6, 7, 8]), [0x42, 0x00, 0xFF], [0x10, 1], BinaryBuilder.ascii("text"),
            [0x23, 0x40, 0x04, 0, 0, 0, 0, 0, 0], [0x09],
        ]
        return builder.bytes()
    }()

    private func error(_ bytes: [UInt8], _ options: PlistReadOptions = .init()) throws -> PlistError {
        try #require(throws: PlistError.self) { try Plist(binary: bytes, options: options) }
    }

    @Test func theSmallFileReads() throws {
        #expect(
            try Plist(binary: Self.small)
                == ["key": [1, "text", 2.5, true], "data": .data(Data([0x00, 0xFF]))])
    }

    @Test func everyTruncationIsAnErrorAtItsPlace() throws {
        for length in 0..<Self.small.count {
            let error = try error(Array(Self.small[0..<length]))
            switch length {
            case 0: #expect(error == PlistError(.emptyInput, at: 0))
            case 1..<8: #expect(error == PlistError(.truncated(what: "the header"), at: length))
            case 8..<41: #expect(error == PlistError(.truncated(what: "the 32-byte trailer"), at: length))
            default:
                // The last 32 bytes are now taken for the trailer: whatever they hold, it is
                // refused there (in the trailer, at most 32 bytes from the end) or, when the
                // trailer happens to look valid, where the first bad offset or object is.
                let offset = try #require(error.byteOffset, "\(length): \(error)")
                #expect(offset <= length, "\(length): \(error)")
                #expect(error.description.hasPrefix("byte \(offset): "), "\(length)")
            }
        }
    }

    @Test func everyCorruptedByteIsReadOrRefused() throws {
        for position in Self.small.indices {
            for byte: UInt8 in [0x00, 0x0F, 0x7F, 0x80, 0xFF] {
                var bytes = Self.small
                bytes[position] = byte
                do {
                    _ = try Plist(binary: bytes)
                } catch {
                    #expect(try #require(error.byteOffset) < bytes.count, "\(position)=\(byte): \(error)")
                }
            }
        }
    }

    /// Each trailer field (offset size, reference size, object count, top object, offset table
    /// offset) at values out of range, with the exact error and its place.
    @Test func everyTrailerFieldOutOfRange() throws {
        let trailer = Self.small.count - 32
        func with(_ offset: Int, _ width: Int, _ value: UInt64) -> [UInt8] {
            var bytes = Self.small
            bytes.replaceSubrange(
                trailer + offset..<trailer + offset + width, with: BinaryBuilder.bigEndian(value, width: width))
            return bytes
        }
        for size: UInt64 in [0, 9, 255] {
            #expect(
                try error(with(6, 1, size))
                    == PlistError(.invalidTrailer(field: "offset size", value: size), at: trailer + 6))
            #expect(
                try error(with(7, 1, size))
                    == PlistError(.invalidTrailer(field: "object reference size", value: size), at: trailer + 7))
        }
        #expect(
            try error(with(8, 8, 0)) == PlistError(.invalidTrailer(field: "object count", value: 0), at: trailer + 8))
        for count: UInt64 in [256, 1 << 32, .max] {
            #expect(
                try error(with(8, 8, count))
                    == PlistError(
                        .invalidTrailer(field: "object count (more than 1-byte references reach)", value: count),
                        at: trailer + 8))
        }
        for top: UInt64 in [9, 255, .max] {
            #expect(
                try error(with(16, 8, top)) == PlistError(.referenceOutOfRange(top, objectCount: 9), at: trailer + 16))
        }
        for tableOffset: UInt64 in [0, 8] {
            #expect(
                try error(with(24, 8, tableOffset))
                    == PlistError(.invalidTrailer(field: "offset table offset", value: tableOffset), at: trailer + 24))
        }
        for tableOffset: UInt64 in [9, UInt64(trailer - 8), UInt64(trailer), 1 << 40, .max] {
            #expect(
                try error(with(24, 8, tableOffset))
                    == PlistError(
                        .misplacedOffsetTable(tableOffset: tableOffset, objectCount: 9, offsetSize: 1), at: trailer + 24
                    ))
        }
    }

    @Test func aHugeClaimedCountIsRefusedBeforeAnyAllocation() throws {
        var builder = BinaryBuilder(objects: [], referenceSize: 8)
        // An array of 2^62 references of 8 bytes: the size overflows 64 bits.
        builder.objects = [[0xAF, 0x13] + BinaryBuilder.bigEndian(1 << 62, width: 8)]
        #expect(try error(builder.bytes()) == PlistError(.lengthPastEnd(count: 1 << 62, unit: 8), at: 8))
        builder.objects = [[0xDF, 0x13] + BinaryBuilder.bigEndian(.max, width: 8)]
        #expect(try error(builder.bytes()) == PlistError(.lengthPastEnd(count: .max, unit: 16), at: 8))
    }

    /// 64 levels of `[previous, previous]` (and of `{"a": previous, "b": previous}`) in under
    /// 1 KB describe 2^64 leaves: refused at once, at the container that passes the limit.
    @Test(arguments: [false, true])
    func aOneKilobyteFileDescribingTwoToTheSixtyFourLeavesIsRefused(dictionaries: Bool) throws {
        var builder = BinaryBuilder(
            objects: [[0x10, 1], BinaryBuilder.ascii("a"), BinaryBuilder.ascii("b")], offsetSize: dictionaries ? 2 : 1)
        var previous = 0
        for _ in 1...64 {
            builder.objects.append(
                dictionaries
                    ? builder.container(0xD0, [1, 2, previous, previous])
                    : builder.container(0xA0, [previous, previous]))
            previous = builder.objects.count - 1
        }
        builder.top = UInt64(previous)
        let bytes = builder.bytes()
        #expect(bytes.count < 1024)
        let clock = ContinuousClock()
        let start = clock.now
        let error = try error(bytes)
        #expect(clock.now - start < .seconds(1))
        // Level n stands for 2^(n+1) - 1 values (keys are counted as content, not values): the
        // 24th level is the first past 2^24.
        let objectSize = dictionaries ? 5 : 3
        #expect(error == PlistError(.tooManyObjects(limit: 1 << 24), at: 14 + 23 * objectSize))
        // Without an object limit the count overflows, and that is refused too.
        let unlimited = PlistReadOptions(maxObjects: .max, maxContentBytes: .max)
        #expect(try self.error(bytes, unlimited).kind == .tooManyObjects(limit: .max))
    }

    /// `{"test": [129, 129], "test": [[129], {"test": "foo"}, [129], [129]]}` (found by fuzzing):
    /// the dictionary inside the second value, which uses the key too, must not hide the repeat.
    @Test func aKeyRepeatedAroundANestedDictionaryWithThatKeyIsReadOnce() throws {
        let bytes = try Paths.bytes(
            Paths.fixtures.appendingPathComponent(
                "fuzz/FuzzBinary/key-repeated-around-a-nested-dictionary-with-that-key.bplist"))
        let value = try Plist(binary: bytes)
        #expect(value == ["test": [[129], ["test": "foo"], [129], [129]]])
        #expect(value.dictionary?.keys.count == 1)
    }

    /// A value that shares storage 2^40 times: the binary writer keeps the sharing (a few
    /// hundred bytes, which the reader then refuses as too many values); the XML writer stops at
    /// its output limit instead of writing 2^40 lines.
    @Test func writersStayBoundedOnAHugelySharedValue() throws {
        var value: Plist = .string("leaf")
        for _ in 0..<40 { value = [value, value] }
        let binary = try value.binaryBytes()
        #expect(binary.count < 1024)
        #expect(try error(binary).kind == .tooManyObjects(limit: 1 << 24))
        let options = PlistWriteOptions(maxOutputBytes: 1 << 20)
        let xmlError = try #require(throws: PlistError.self) { try value.xmlBytes(options: options) }
        #expect(xmlError == PlistError(.outputTooLarge(limit: 1 << 20), at: 0))
        #expect(
            xmlError.description == "the output would be larger than 1048576 bytes (raise maxOutputBytes to allow more)"
        )
        let tooLarge = PlistError(.outputTooLarge(limit: 1 << 20), at: 0)
        #expect(throws: tooLarge) { try value.jsonBytes(options: options) }
        #expect(throws: tooLarge) { try value.openStepBytes(options: options) }
        // Under the limit, the same writers write it all.
        var small: Plist = .string("leaf")
        for _ in 0..<10 { small = [small, small] }
        #expect(try small.jsonBytes(options: options).count > 1024 * 6)
        #expect(try small.openStepBytes(options: options).count > 1024 * 6)
    }
}
