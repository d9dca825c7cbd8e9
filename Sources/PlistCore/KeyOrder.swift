import OrderedCollections

/// The order writers sort dictionary keys in: CoreFoundation's.
enum KeyOrder {
    /// The positions of `keys` in CoreFoundation's order, or `nil` when they are in order already.
    ///
    /// CF sorts with `CFStringCompare(a, b, 0)`, a literal comparison of UTF-16 code units (a
    /// prefix first): "" < "\0" < " " < "0" < "A" < "Z" < "_" < "a" < "~" < "é" < "😀" < U+E000
    /// < "ｱ" < U+FFFD. Not by Unicode scalar, not normalized ("e\u{301}" sorts before "f", "é"
    /// after "z"), not case-folded. Comparing UTF-8 bytes gives the same order once the lead
    /// bytes 0xEE and 0xEF (U+E000...U+FFFF) are moved above 0xF0...0xF4 (U+10000 and up).
    static func sortedOrder(_ keys: OrderedSet<String>) -> [Int]? {
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
        return keys.indices.sorted { precedesInUTF16(keys[$0], keys[$1]) }
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
