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
        var tail: UInt64 = 0
        for offset in 0..<(bytes.count - index) { tail |= UInt64(bytes[index + offset]) << (8 * offset) }
        hash = mix(hash ^ tail, key ^ seed)
        return hash ^ hash >> 32
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
