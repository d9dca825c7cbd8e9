/// Numbers distinct byte strings (dictionary keys) 0, 1, 2, ... in the order they are first
/// added: an open-addressing table hashed with `SeededHash`, cheaper than `Hasher` for short
/// keys. Equal bytes, and only they, get equal numbers.
struct KeyNumbering {
    /// Per slot: -1 when empty, else the number of the key stored there. Invariant: a power of
    /// two at least twice the number of keys.
    private var slots = [Int32](repeating: -1, count: 64)
    /// Per number, where its bytes start in `storage`; one more entry marks the end.
    private var starts: [Int] = [0]
    private var storage: [UInt8] = []

    /// How many distinct keys were added.
    var count: Int { starts.count - 1 }

    /// The number of `key`, added if it is new.
    mutating func number(adding key: Span<UInt8>) -> Int32 {
        var slot = Self.hash(key) & (slots.count - 1)
        while slots[slot] >= 0 {
            if matches(Int(slots[slot]), key) { return slots[slot] }
            slot = (slot + 1) & (slots.count - 1)
        }
        let number = Int32(count)
        for index in 0..<key.count { storage.append(key[index]) }
        starts.append(storage.count)
        slots[slot] = number
        if 2 * count > slots.count { grow() }
        return number
    }

    /// The number of `key`, if it was added.
    func number(of key: Span<UInt8>) -> Int32? {
        var slot = Self.hash(key) & (slots.count - 1)
        while slots[slot] >= 0 {
            if matches(Int(slots[slot]), key) { return slots[slot] }
            slot = (slot + 1) & (slots.count - 1)
        }
        return nil
    }

    private func matches(_ number: Int, _ key: Span<UInt8>) -> Bool {
        let start = starts[number]
        guard starts[number + 1] - start == key.count else { return false }
        for index in 0..<key.count where storage[start + index] != key[index] { return false }
        return true
    }

    private mutating func grow() {
        var grown = [Int32](repeating: -1, count: 2 * slots.count)
        let storage = self.storage
        for number in 0..<count {
            var slot = Self.hash(storage.span.extracting(starts[number]..<starts[number + 1])) & (grown.count - 1)
            while grown[slot] >= 0 { slot = (slot + 1) & (grown.count - 1) }
            grown[slot] = Int32(number)
        }
        slots = grown
    }

    private static func hash(_ key: Span<UInt8>) -> Int {
        Int(truncatingIfNeeded: SeededHash.bytes(key))
    }
}
