/// The keys of the open dictionaries of a `BinaryPlistStreamWriter`, to find a repeated key
/// without keeping the keys: for each key, a 32-bit hash of its encoded bytes and the place
/// where those bytes can be read again (in the output, or in `arena` when the output cannot be
/// read back); a hash that matches is confirmed by comparing the bytes. A dictionary of more
/// than `linearLimit` keys also has a `HashSlots` table of its keys' positions (from a quarter
/// to half full), so a wide dictionary costs 20 to 28 bytes per key.
struct BinaryStreamKeys {
    /// Dictionaries up to this many keys are searched key by key.
    static let linearLimit = 16

    /// The hash and place of each distinct key of the open dictionaries, innermost last.
    private var hashes: [UInt32] = []
    private var places: [Int] = []
    /// The encoded keys of the open dictionaries, when the output cannot be read back: a
    /// place is then an offset here.
    private(set) var arena: [UInt8] = []
    /// The tables of the open dictionaries that have one, innermost last: the position of the
    /// dictionary's first key in `hashes`, and its table (per full slot, a key's index in the
    /// dictionary plus one).
    private var tables: [(start: Int, slots: HashSlots<UInt32>)] = []

    var count: Int { hashes.count }

    static func hash(_ encoded: [UInt8]) -> UInt32 {
        UInt32(truncatingIfNeeded: SeededHash.bytes(encoded.span))
    }

    /// The index, within the dictionary whose keys start at `start`, of the key with `hash`
    /// for which `matches` (given that key's place) is true, or nil.
    func find(
        hash: UInt32, start: Int, matches: (_ place: Int) throws(PlistError) -> Bool
    ) throws(PlistError) -> Int? {
        if let table = tables.last, table.start == start {
            let place = try table.slots.place(of: Int(hash)) { slot throws(PlistError) in
                let index = Int(slot) - 1
                guard hashes[start + index] == hash else { return false }
                return try matches(places[start + index])
            }
            return table.slots[place].isEmpty ? nil : Int(table.slots[place]) - 1
        }
        for position in start..<hashes.count where hashes[position] == hash {
            if try matches(places[position]) { return position - start }
        }
        return nil
    }

    /// Adds a key, not already there, to the dictionary whose keys start at `start`.
    mutating func append(hash: UInt32, place: Int, start: Int) {
        hashes.append(hash)
        places.append(place)
        let count = hashes.count - start
        if let last = tables.last, last.start == start {
            let table = tables.count - 1
            tables[table].slots.fill(tables[table].slots.emptyPlace(of: Int(hash)), with: UInt32(count))
            if tables[table].slots.needsToGrow {
                let hashes = hashes[start...]
                tables[table].slots.grow { Int(hashes[start + Int($0) - 1]) }
            }
        } else if count > Self.linearLimit {
            var slots = HashSlots<UInt32>(capacity: 2 * count, minimumCount: 64)
            for index in 0..<count {
                slots.fill(slots.emptyPlace(of: Int(hashes[start + index])), with: UInt32(index + 1))
            }
            tables.append((start, slots))
        }
    }

    /// Keeps `bytes`, an encoded key, and returns its place, when the output cannot be read back.
    mutating func keep(_ bytes: [UInt8]) -> Int {
        arena.append(contentsOf: bytes)
        return arena.count - bytes.count
    }

    /// Forgets the keys from `start` on: the dictionary whose keys start there has ended.
    /// `arenaStart` is where its kept keys start (the arena's size when it opened).
    mutating func remove(from start: Int, arenaStart: Int) {
        if let last = tables.last, last.start == start { tables.removeLast() }
        hashes.removeSubrange(start...)
        places.removeSubrange(start...)
        if arenaStart < arena.count { arena.removeSubrange(arenaStart...) }
    }
}
