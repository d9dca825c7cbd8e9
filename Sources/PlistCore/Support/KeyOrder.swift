/// The order writers sort dictionary keys in: CoreFoundation's.
package enum KeyOrder {
    /// The positions of `keys` in CoreFoundation's order, or `nil` when they are in order already.
    ///
    /// CF sorts with `CFStringCompare(a, b, 0)`, a literal comparison of UTF-16 code units (a
    /// prefix first): "" < "\0" < " " < "0" < "A" < "Z" < "_" < "a" < "~" < "é" < "😀" < U+E000
    /// < "ｱ" < U+FFFD. Not by Unicode scalar, not normalized ("e\u{301}" sorts before "f", "é"
    /// after "z"), not case-folded. Comparing UTF-8 bytes gives the same order once the lead
    /// bytes 0xEE and 0xEF (U+E000...U+FFFF) are moved above 0xF0...0xF4 (U+10000 and up).
    static func sortedOrder(_ keys: [String]) -> [Int]? {
        var isSorted = true
        var previous: String?
        for key in keys {
            if let previous, !precedesInUTF16(previous, key) {
                isSorted = false
                break
            }
            previous = key
        }
        if isSorted { return nil }
        return sortedIndices(keys)
    }

    /// The positions of `keys` (all different) in CoreFoundation's order. Each key's first 12
    /// bytes, mapped as `orderWord` maps them, order most pairs without reading the keys again
    /// (`sortByPrefix`); `order` orders the keys that share them.
    static func sortedIndices(_ keys: [String]) -> [Int] {
        guard keys.count > 1 else { return Array(keys.indices) }
        var items = keys.indices.map { index in
            let utf8 = keys[index].utf8.span
            return UInt128(orderWord(utf8)) << 64 | UInt128(orderWord(utf8, from: 8) >> 32) << 32 | UInt128(index)
        }
        _ = items.sortByPrefix { order(keys[$0], keys[$1]) }
        return items.map([UInt128].index)
    }

    /// The 8 bytes of `utf8` from `start` as a big-endian word, each byte mapped as
    /// `precedesInUTF16` maps it, missing bytes 0: of two keys, the one with the smaller word
    /// comes first; equal words say nothing (`"a"` and `"a\0"`).
    static func orderWord(_ utf8: Span<UInt8>, from start: Int = 0) -> UInt64 {
        var word: UInt64 = 0
        if start + 8 <= utf8.count {
            word = utf8.word(at: start)
        } else {
            for index in start..<max(start, utf8.count) { word |= UInt64(utf8[index]) << (8 * UInt64(index - start)) }
        }
        // 0x10 more in each byte that is 0xEE or 0xEF: the bytes that are zero once those two
        // are made 0xEF and then cleared have their high bit set in `cleared`.
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let masked = (word | 0x0101_0101_0101_0101) ^ 0xEFEF_EFEF_EFEF_EFEF
        let cleared = ~(((masked & low) &+ low) | masked | low)
        return (word &+ (cleared >> 3)).byteSwapped
    }

    package static func precedesInUTF16(_ a: String, _ b: String) -> Bool {
        order(a, b) < 0
    }

    /// The order of `a` and `b` as `precedesInUTF16` sees it: negative, zero or positive.
    static func order(_ a: String, _ b: String) -> Int {
        let (x, y) = (a.utf8.span, b.utf8.span)
        guard let index = x.firstDifference(from: y) else { return x.count - y.count }
        let (p, q) = (x[index], y[index])
        return Int(p & 0xFE == 0xEE ? p &+ 0x10 : p) - Int(q & 0xFE == 0xEE ? q &+ 0x10 : q)
    }
}

/// The CoreFoundation order of each key storage a writer meets, found once: dictionaries read
/// with the same keys share their storage (`DictionaryKeys`), and an
/// iTunes-like library has 20,000 tracks of about 30 keys in a few hundred key sets.
struct KeyOrders {
    /// Orders of unsorted keys only (keys in order are found so in one pass, about what a lookup
    /// costs, and a small file's writer then keeps no table), and only from the second time a
    /// storage is met: the first time, `nil` notes it. A tree read from text, whose dictionaries
    /// share no keys, keeps no orders.
    private var orders = StorageTable<[Int]?>()

    /// The positions of `entries`' keys in CoreFoundation's order, or `nil` when they are in it.
    mutating func sortedOrder(of entries: PlistDictionary) -> [Int]? {
        let identity = StorageIdentity(keysOf: entries)
        let known = orders[identity]
        if case .some(.some(let order)) = known { return order }
        guard let order = KeyOrder.sortedOrder(entries.keyStorage.keys) else { return nil }
        orders.insert(known == nil ? nil : order, for: identity)
        return order
    }
}
