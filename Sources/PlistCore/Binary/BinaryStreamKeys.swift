/// The keys of the open dictionaries of a `BinaryPlistStreamWriter`, to find a repeated key
/// without keeping the keys: for each key, a 32-bit hash of its encoded bytes and the place
/// where those bytes can be read again (in the output, or in `arena` when the output cannot be
/// read back); a hash that matches is confirmed by comparing the bytes. A dictionary of more
/// than `linearLimit` keys also has an open-addressing table of its keys' positions (from a
/// quarter to half full), so a wide dictionary costs 20 to 28 bytes per key.
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
    /// dictionary's first key in `hashes`, and its slots (0 empty, else a key's index in the
    /// dictionary + 1; at most half full).
    private var tables: [(start: Int, slots: [UInt32])] = []

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
            let mask = table.slots.count - 1
            var slot = Int(hash) & mask
            while table.slots[slot] != 0 {
                let index = Int(table.slots[slot]) - 1
                if hashes[start + index] == hash, try matches(places[start + index]) { return index }
                slot = (slot + 1) & mask
            }
            return nil
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
            insert(index: count - 1, hash: hash, table: tables.count - 1)
            let size = tables[tables.count - 1].slots.count
            if 2 * count > size { rebuild(start: start, slotCount: 2 * size) }
        } else if count > Self.linearLimit {
            tables.append((start, []))
            rebuild(start: start, slotCount: 4 * count)
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

    private mutating func rebuild(start: Int, slotCount: Int) {
        var size = 64
        while size < slotCount { size *= 2 }
        let table = tables.count - 1
        tables[table].slots = []
        tables[table].slots = [UInt32](repeating: 0, count: size)
        for index in 0..<(hashes.count - start) { insert(index: index, hash: hashes[start + index], table: table) }
    }

    private mutating func insert(index: Int, hash: UInt32, table: Int) {
        let mask = tables[table].slots.count - 1
        var slot = Int(hash) & mask
        while tables[table].slots[slot] != 0 { slot = (slot + 1) & mask }
        tables[table].slots[slot] = UInt32(index + 1)
    }
}
