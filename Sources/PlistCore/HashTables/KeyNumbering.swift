/// Numbers distinct byte strings (dictionary keys) 0, 1, 2, ... in the order they are first
/// added: a `HashSlots` table hashed with `SeededHash`, cheaper than `Hasher` for short keys.
/// Equal bytes, and only they, get equal numbers.
struct KeyNumbering {
    /// Per full slot, the number of the key stored there plus one.
    private var table = HashSlots<UInt32>(capacity: 32)
    /// Per number, where its bytes start in `storage`; one more entry marks the end.
    private var starts: [Int] = [0]
    private var storage: [UInt8] = []

    /// How many distinct keys were added.
    var count: Int { starts.count - 1 }

    /// The number of `key`, added if it is new.
    mutating func number(adding key: Span<UInt8>) -> Int32 {
        let place = table.place(of: Self.hash(key)) { matches(Int($0) - 1, key) }
        guard table[place].isEmpty else { return Int32(table[place]) - 1 }
        let number = count
        for index in 0..<key.count { storage.append(key[index]) }
        starts.append(storage.count)
        table.fill(place, with: UInt32(number + 1))
        if table.needsToGrow {
            let (storage, starts) = (storage, starts)
            table.grow { Self.hash(storage.span.extracting(starts[Int($0) - 1]..<starts[Int($0)])) }
        }
        return Int32(number)
    }

    /// The number of `key`, if it was added.
    func number(of key: Span<UInt8>) -> Int32? {
        let place = table.place(of: Self.hash(key)) { matches(Int($0) - 1, key) }
        return table[place].isEmpty ? nil : Int32(table[place]) - 1
    }

    private func matches(_ number: Int, _ key: Span<UInt8>) -> Bool {
        storage.span.extracting(starts[number]..<starts[number + 1]).hasSameBytes(as: key)
    }

    private static func hash(_ key: Span<UInt8>) -> Int {
        Int(truncatingIfNeeded: SeededHash.bytes(key))
    }
}
