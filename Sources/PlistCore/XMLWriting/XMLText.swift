/// XML text eight (or sixteen) bytes at a time: the word tests that the writer's escape count
/// and the reader's scanner share.
package enum XMLText {
    /// The high bit of each byte of `word` (eight bytes, the first lowest) equal to `byte`:
    /// zero exactly when none is, and the lowest bit set is exact (a byte above an equal one
    /// can be flagged wrongly, through a borrow).
    @inlinable @inline(__always)
    package static func bytes(equalTo byte: UInt8, in word: UInt64) -> UInt64 {
        let zeroWhereEqual = word ^ UInt64(byte) &* ones
        return (zeroWhereEqual &- ones) & ~zeroWhereEqual & highBits
    }

    /// `bytes(equalTo:in:)` on two words at once: a borrow stays inside its word, so each word
    /// is zero exactly when none of its bytes is `byte`.
    @inline(__always)
    static func bytes(equalTo byte: UInt8, in words: SIMD2<UInt64>) -> SIMD2<UInt64> {
        let zeroWhereEqual = words ^ SIMD2(repeating: UInt64(byte) &* ones)
        return (zeroWhereEqual &- SIMD2(repeating: ones)) & ~zeroWhereEqual & SIMD2(repeating: highBits)
    }

    @inlinable package static var ones: UInt64 { 0x0101_0101_0101_0101 }
    @inlinable package static var highBits: UInt64 { 0x8080_8080_8080_8080 }
}
