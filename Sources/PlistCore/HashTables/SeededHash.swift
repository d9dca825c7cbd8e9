/// The hash of every table here that indexes bytes a file gave or a writer will write (binary
/// scalars, dictionary keys): seeded once per process, so that no input can be made to collide
/// on purpose and make a table quadratic, and cheap (one folded multiplication per 8 bytes).
enum SeededHash {
    private static let seeds = (UInt64.random(in: 1...UInt64.max), UInt64.random(in: 1...UInt64.max))

    /// The hash of `bytes`.
    static func bytes(_ bytes: Span<UInt8>) -> UInt64 {
        let (seed, key) = seeds
        var hash = seed ^ UInt64(bytes.count)
        var index = 0
        while index + 8 <= bytes.count {
            hash = mix(hash ^ bytes.word(at: index), key)
            index += 8
        }
        hash = mix(hash ^ tail(bytes, from: index), key ^ seed)
        return hash ^ hash >> 32
    }

    /// The last `bytes.count - index` bytes (fewer than 8) in one word, read as at most two
    /// overlapping loads rather than byte by byte. Which word stands for which tail does not
    /// matter, only that equal tails of one length give equal words and that each byte counts.
    private static func tail(_ bytes: Span<UInt8>, from index: Int) -> UInt64 {
        let count = bytes.count
        switch count - index {
        case 0:
            return 0
        case let remaining where count >= 8:
            // The last 8 bytes, shifted so that only the `remaining` ones after `index` are left.
            return bytes.word(at: count - 8) >> (8 * UInt64(8 - remaining))
        case 4...:
            return UInt64(bytes.halfWord(at: index)) | UInt64(bytes.halfWord(at: count - 4)) << 32
        default:
            let first = UInt64(bytes[index])
            let middle = UInt64(bytes[index + (count - index) / 2])
            return first | middle << 8 | UInt64(bytes[count - 1]) << 16
        }
    }

    /// The hash of 8 bytes of `bits` told apart by `tag`.
    static func word(_ bits: UInt64, tag: UInt8) -> UInt64 {
        mix(bits ^ seeds.0, seeds.1 ^ UInt64(tag))
    }

    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }
}
