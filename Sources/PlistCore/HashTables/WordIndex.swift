/// The integers, reals and dates of an `ObjectTable`, found by their marker and 8 bytes of bits:
/// a `HashSlots` table that keeps the key in the slot, so a lookup reads one cache line. A slot
/// is 128 bits: the bits in the low half, `marker << 32 | (object + 1)` in the high half (so a
/// full slot is never zero).
struct WordIndex {
    private var table: HashSlots<UInt128>

    init(capacity: Int) {
        table = HashSlots(capacity: capacity, minimumCount: 64)
    }

    private static func hash(_ marker: UInt8, _ bits: UInt64) -> Int {
        Int(truncatingIfNeeded: SeededHash.word(bits, tag: marker))
    }

    /// The object with `marker` and `bits`, or the empty slot where it belongs.
    func find(_ marker: UInt8, _ bits: UInt64) -> (object: Int?, slot: Int) {
        let place = table.place(of: Self.hash(marker, bits)) {
            UInt64(truncatingIfNeeded: $0) == bits && UInt8(truncatingIfNeeded: $0 >> 96) == marker
        }
        let slot = table[place]
        return (slot == 0 ? nil : Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: slot >> 64)) - 1, place)
    }

    /// A byte of the slot where `marker` and `bits` would be looked up first.
    func touch(_ marker: UInt8, _ bits: UInt64) -> UInt8 {
        UInt8(truncatingIfNeeded: table[table.home(Self.hash(marker, bits))] >> 64)
    }

    mutating func insert(_ object: Int, _ marker: UInt8, _ bits: UInt64, at slot: Int) {
        let tag = UInt128(marker) << 32 | UInt128(object + 1)
        table.fill(slot, with: tag << 64 | UInt128(bits)) {
            Self.hash(UInt8(truncatingIfNeeded: $0 >> 96), UInt64(truncatingIfNeeded: $0))
        }
    }
}
