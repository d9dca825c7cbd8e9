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
}
