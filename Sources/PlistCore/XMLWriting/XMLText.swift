/// XML text eight bytes at a time: the word tests that the writer's escape count and the
/// reader's scanner share.
package enum XMLText {
    /// The high bit of each byte of `word` (eight bytes, the first lowest) equal to `byte`:
    /// zero exactly when none is, and the lowest bit set is exact (a byte above an equal one
    /// can be flagged wrongly, through a borrow).
    @inlinable @inline(__always)
    package static func bytes(equalTo byte: UInt8, in word: UInt64) -> UInt64 {
        let zeroWhereEqual = word ^ UInt64(byte) &* ones
        return (zeroWhereEqual &- ones) & ~zeroWhereEqual & highBits
    }

    @inlinable package static var ones: UInt64 { 0x0101_0101_0101_0101 }
    @inlinable package static var highBits: UInt64 { 0x8080_8080_8080_8080 }
}
