/// The scalar objects of an `ObjectTable`, found by their encoded bytes: a `HashSlots` table
/// whose slots hold `hash << 32 | (object + 1)`, so that most probes that miss read no bytes.
struct ScalarIndex {
    private var table: HashSlots<UInt64>

    /// An index with room for `capacity` objects before it grows.
    init(capacity: Int) {
        table = HashSlots(capacity: capacity, minimumCount: 1024)
    }

    static func hash(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        UInt32(truncatingIfNeeded: SeededHash.bytes(bytes.span))
    }

    /// The object whose bytes (`bytes[entry.start...]` for its entry) equal `candidate`, or
    /// the empty slot where it belongs.
    func find(
        hash: UInt32, candidate: ArraySlice<UInt8>, bytes: [UInt8], entries: [ObjectTable.Entry]
    ) -> (object: Int?, slot: Int) {
        let length = candidate.count
        let place = table.place(of: Int(hash)) { stored in
            guard UInt32(truncatingIfNeeded: stored >> 32) == hash else { return false }
            let entry = entries[Int(truncatingIfNeeded: stored & 0xFFFF_FFFF) - 1]
            return entry.count == length && bytes[entry.start..<entry.start + length] == candidate
        }
        let stored = table[place]
        return (stored.isEmpty ? nil : Int(truncatingIfNeeded: stored & 0xFFFF_FFFF) - 1, place)
    }

    mutating func insert(_ object: Int, hash: UInt32, at slot: Int) {
        table.fill(slot, with: UInt64(hash) << 32 | UInt64(object + 1)) { Int(truncatingIfNeeded: $0 >> 32) }
    }
}
