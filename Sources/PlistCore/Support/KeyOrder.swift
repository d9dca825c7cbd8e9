/// The order writers sort dictionary keys in: CoreFoundation's.
enum KeyOrder {
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

    /// The positions of `keys` (all different) in CoreFoundation's order. Each key's first 8
    /// bytes, as one word, order most pairs: what is sorted is integers (the word, then the
    /// position); `precedesInUTF16` orders each run of keys that share their word.
    static func sortedIndices(_ keys: [String]) -> [Int] {
        guard keys.count > 1 else { return Array(keys.indices) }
        var items = keys.indices.map { UInt128(orderWord(keys[$0])) << 64 | UInt128($0) }
        items.sort()
        var run = 0
        for index in 1...items.count where index == items.count || items[index] >> 64 != items[run] >> 64 {
            if index - run > 1 {
                // Keys sharing their first 8 bytes (`CFBundle...`): by their next 8, as integers,
                // then by all their bytes where those agree too.
                var pairs = items[run..<index].map {
                    (next: orderWord(keys[Int(truncatingIfNeeded: $0)], from: 8), item: $0)
                }
                pairs.sort {
                    $0.next != $1.next
                        ? $0.next < $1.next
                        : precedesInUTF16(
                            keys[Int(truncatingIfNeeded: $0.item)], keys[Int(truncatingIfNeeded: $1.item)])
                }
                for (offset, pair) in pairs.enumerated() { items[run + offset] = pair.item }
            }
            run = index
        }
        return items.map { Int(truncatingIfNeeded: $0) }
    }

    /// The 8 bytes of `key`'s UTF-8 from `start` as a big-endian word, each byte mapped as
    /// `precedesInUTF16` maps it, missing bytes 0: of two keys, the one with the smaller word
    /// comes first; equal words say nothing (`"a"` and `"a\0"`).
    static func orderWord(_ key: String, from start: Int = 0) -> UInt64 {
        let utf8 = key.utf8.span
        var word: UInt64 = 0
        for index in start..<start + 8 {
            let byte = index < utf8.count ? utf8[index] : 0
            word = word << 8 | UInt64(byte & 0xFE == 0xEE ? byte &+ 0x10 : byte)
        }
        return word
    }

    static func precedesInUTF16(_ a: String, _ b: String) -> Bool {
        let x = a.utf8.span
        let y = b.utf8.span
        for index in 0..<min(x.count, y.count) where x[index] != y[index] {
            let (p, q) = (x[index], y[index])
            return (p & 0xFE == 0xEE ? p &+ 0x10 : p) < (q & 0xFE == 0xEE ? q &+ 0x10 : q)
        }
        return x.count < y.count
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
