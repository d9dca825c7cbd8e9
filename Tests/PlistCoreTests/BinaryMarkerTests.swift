import Testing

@testable import PlistCore

/// The named numbers of the binary format (`BinaryMarker`), against their definitions.
@Suite struct BinaryMarkerTests {
    @Test func powerOfTwoWidthIsTheSmallestOfOneTwoFourEightBytesThatHoldsTheValue() {
        let values: [UInt64] = [
            0, 1, 0xFF, 0x100, 0xFFFF, 0x1_0000, 0xFF_FFFF, 0x100_0000, 0xFFFF_FFFF, 0x1_0000_0000, .max,
        ]
        for value in values {
            let reference = [1, 2, 4, 8].first { $0 == 8 || value < 1 << (8 * UInt64($0)) }
            #expect(BinaryMarker.powerOfTwoWidth(holding: value) == reference, "\(value)")
        }
    }

    @Test func lowNibbleAndHeader() {
        #expect(BinaryMarker.low(0xD3) == 3)
        #expect(BinaryMarker.low(0x5F) == BinaryMarker.countFollows)
        #expect(BinaryMarker.header == Array("bplist00".utf8))
        #expect(BinaryMarker.header.starts(with: BinaryMarker.magic))
        #expect(PlistFormat.detect(BinaryMarker.magic) == .binary)
    }

    /// A header of a version the reader reads is what `BinaryLayout` accepts before its trailer.
    @Test func readableHeadersAreTheVersionsTheLayoutReads() {
        for (text, readable) in [
            ("bplist00", true), ("bplist01", true), ("bplist0", false), ("bplist15", false), ("xplist00", false),
        ] {
            #expect(BinaryMarker.startsReadableHeader(Array(text.utf8)) == readable, "\(text)")
        }
    }
}
