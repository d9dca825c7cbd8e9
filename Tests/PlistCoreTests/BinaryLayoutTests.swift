import Testing

@testable import PlistCore

/// The offset table's check, one loop per common offset width.
@Suite struct BinaryLayoutTests {
    /// A file of one object (`false`, at byte 8) that `objectCount` entries of `offsetSize`
    /// bytes point to.
    private func file(offsetSize: Int, objectCount: Int) -> [UInt8] {
        var bytes = Array("bplist00".utf8) + [0x08]
        bytes.reserveCapacity(bytes.count + objectCount * offsetSize + 32)
        let entry = (0..<offsetSize).map { $0 == offsetSize - 1 ? UInt8(8) : 0 }
        for _ in 0..<objectCount { bytes += entry }
        bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), 4]
        for field in [UInt64(objectCount), 0, 9] {
            bytes += (0..<8).map { UInt8(truncatingIfNeeded: field >> (56 - 8 * $0)) }
        }
        return bytes
    }

    /// `didRead` is told after every whole MiB of offset table, at every width, as the loop
    /// that read any width told it.
    @Test(arguments: [
        (1, 2 << 20 + 5, 2), (2, 1 << 20 + 3, 2), (3, 349_525 * 2, 2), (4, 3 << 18 - 1, 2), (8, 1 << 17, 1),
        (2, 1 << 19 - 1, 0),
    ])
    func tellsAfterEveryMebibyteOfOffsetTable(offsetSize: Int, objectCount: Int, parts: Int) throws {
        let bytes = file(offsetSize: offsetSize, objectCount: objectCount)
        var told = 0
        let layout = try PlistCore.BinaryLayout(bytes.span, maxObjects: .max) { told += 1 }
        #expect(layout.objectCount == objectCount && layout.offset(of: objectCount - 1, in: bytes.span) == 8)
        #expect(told == parts)
    }

    /// A number read in one 8-byte load (a walk's references) is the number `readUInt` reads,
    /// at every width and at every place with eight bytes left.
    @Test func wordReadsAreTheNumbersByteReadsRead() {
        let bytes = (0..<40).map { UInt8(truncatingIfNeeded: $0 &* 73 &+ 0x85) }
        var agreed = 0
        for width in 1...8 {
            for offset in 0...(bytes.count - 8)
            where readUIntInWord(bytes.span, at: offset, width: width) == readUInt(bytes.span, at: offset, width: width)
            {
                agreed += 1
            }
        }
        #expect(agreed == 8 * 33)
    }

    /// An entry outside the object area is reported at its own place, at every width.
    @Test(arguments: [1, 2, 3, 4, 8])
    func reportsTheFirstEntryOutsideTheObjectArea(offsetSize: Int) throws {
        var bytes = file(offsetSize: offsetSize, objectCount: 5)
        bytes[9 + 4 * offsetSize - 1] = 9
        let error = try #require(throws: PlistError.self) { try PlistCore.BinaryLayout(bytes.span, maxObjects: .max) }
        #expect(error == PlistError(.objectOffsetOutOfRange(object: 3, offset: 9), at: 9 + 3 * offsetSize))
    }
}
