/// The XML scanner's check for a repeated key in a dictionary of a few keys out of order: a
/// `HashSlots` table of the dictionary's rows of key words (two words a key, as `XMLTable`
/// keeps them: its first 8 bytes, then the next 7 and its length), per full slot a row plus
/// one. Kept from one dictionary to the next for its room. Concrete, so that PlistXML calls
/// code specialized here.
package struct KeyRowTable {
    private var slots = HashSlots<UInt32>(capacity: 64)

    package init() {}

    /// Whether the `count` rows at `first` in `words` (two words a row) hold no key twice. Rows
    /// of equal words are keys that share their first 15 bytes and their length: `sameKey` (of
    /// two rows) compares them.
    package mutating func areDistinct(
        _ words: [UInt64], first: Int, count: Int, sameKey: (_ row: Int, _ other: Int) -> Bool
    ) -> Bool {
        if 2 * count > slots.slotCount {
            slots = HashSlots(capacity: count)
        } else {
            slots.removeAll()
        }
        for row in 0..<count {
            let (prefix, second) = (words[first + 2 * row], words[first + 2 * row + 1])
            let hash = ((prefix &* 0x9E37_79B9_7F4A_7C15) ^ second) &* 0xC2B2_AE3D_27D4_EB4F
            let place = slots.place(of: Int(truncatingIfNeeded: hash >> 32)) { slot in
                let other = Int(slot) - 1
                return words[first + 2 * other] == prefix && words[first + 2 * other + 1] == second
                    && sameKey(row, other)
            }
            guard slots[place].isEmpty else { return false }
            slots.fill(place, with: UInt32(row + 1))
        }
        return true
    }
}
