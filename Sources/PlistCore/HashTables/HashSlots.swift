/// The slots of an open-addressing hash table: the one probe loop, empty marker and growth rule
/// of every hash table in the package (docs/ARCHITECTURE.md, "Hash tables"). A table is this and
/// its own hash and equality: its slots hold what finds an entry (mostly an index plus one into
/// its own storage, often with bits of the hash beside it), and it passes the test of a slot.
///
/// - Empty: a slot is empty when it is `Slot.empty` (zero for integer slots, which is why they
///   hold an index plus one; `nil` for optional ones).
/// - Probe: linear, from `hash & (slots.count - 1)`; the number of slots is a power of two.
/// - Growth: at most half the slots are full; a table that grows doubles its slots when a fill
///   leaves more than half of them full, placing every slot again by its hash. A table sized for
///   all it will hold fills without growing.
///
/// Internal to PlistCore, where every use is specialized: a generic of another module would run
/// unspecialized (PlistXML's table is `KeyRowTable`, concrete). The constraint is on the
/// extension, not the type, so that instantiating the metadata of a type holding a table (as
/// destroying one may) searches no protocol conformances (see `ObjectDecoder`).
struct HashSlots<Slot> {
    private(set) var slots: [Slot]
    /// How many slots are full.
    private(set) var count = 0
}

extension HashSlots where Slot: HashSlot {
    /// Slots for `capacity` entries at most half full: a power of two, at least `minimumCount`
    /// (itself a power of two).
    init(capacity: Int, minimumCount: Int = 16) {
        var size = minimumCount
        while size < 2 * capacity { size *= 2 }
        slots = Slot.emptySlots(count: size)
    }

    /// How many slots there are (a power of two).
    var slotCount: Int { slots.count }

    /// The place probed first for `hash`.
    @inline(__always)
    func home(_ hash: Int) -> Int {
        hash & (slots.count - 1)
    }

    @inline(__always)
    subscript(place: Int) -> Slot {
        slots[place]
    }

    /// Probing from `hash`: the place of the first slot for which `matches` is true, or else of
    /// the first empty slot (where the entry belongs).
    @inline(__always)
    func place<E: Error>(of hash: Int, where matches: (Slot) throws(E) -> Bool) throws(E) -> Int {
        let mask = slots.count - 1
        var place = hash & mask
        while !slots[place].isEmpty {
            if try matches(slots[place]) { return place }
            place = (place + 1) & mask
        }
        return place
    }

    /// Probing from `hash`: the place of the first empty slot, for an entry known not to be in
    /// the table.
    @inline(__always)
    func emptyPlace(of hash: Int) -> Int {
        place(of: hash) { _ in false }
    }

    /// Fills the empty slot at `place`. A table that grows then calls `grow` if `needsToGrow`
    /// (or fills with `fill(_:with:rehash:)`, which does both).
    @inline(__always)
    mutating func fill(_ place: Int, with slot: Slot) {
        slots[place] = slot
        count += 1
    }

    /// Whether more than half the slots are full: a table that grows must `grow` now.
    var needsToGrow: Bool { 2 * count > slots.count }

    /// Fills the empty slot at `place`, then grows if it must.
    @inline(__always)
    mutating func fill(_ place: Int, with slot: Slot, rehash hash: (Slot) -> Int) {
        fill(place, with: slot)
        if needsToGrow { grow(rehash: hash) }
    }

    /// Puts `slot` in place of the full slot at `place` (an entry given a new value).
    @inline(__always)
    mutating func replace(_ place: Int, with slot: Slot) {
        slots[place] = slot
    }

    /// Empties every slot, keeping their number.
    mutating func removeAll() {
        for place in slots.indices { slots[place] = .empty }
        count = 0
    }

    /// Doubles the slots, placing each full one again from `hash(slot)`.
    mutating func grow(rehash hash: (Slot) -> Int) {
        let old = slots
        slots = Slot.emptySlots(count: 2 * old.count)
        for slot in old where !slot.isEmpty { slots[emptyPlace(of: hash(slot))] = slot }
    }
}

/// What a `HashSlots` holds per slot.
protocol HashSlot {
    /// The empty slot.
    static var empty: Self { get }
    var isEmpty: Bool { get }
    /// `count` empty slots.
    static func emptySlots(count: Int) -> [Self]
}

extension HashSlot {
    static func emptySlots(count: Int) -> [Self] {
        Array(repeating: .empty, count: count)
    }
}

extension HashSlot where Self: BitwiseCopyable {
    /// Large tables (a writer's index of a million scalars) in storage as `largeCapacity` makes.
    static func emptySlots(count: Int) -> [Self] {
        [Self](largeRepeating: .empty, count: count)
    }
}

extension UInt32: HashSlot {
    static var empty: UInt32 { 0 }
    var isEmpty: Bool { self == 0 }
}

extension UInt64: HashSlot {
    static var empty: UInt64 { 0 }
    var isEmpty: Bool { self == 0 }
}

extension UInt128: HashSlot {
    static var empty: UInt128 { 0 }
    var isEmpty: Bool { self == 0 }
}

extension Optional: HashSlot {
    static var empty: Wrapped? { nil }
    var isEmpty: Bool { self == nil }
}

extension HashSlots: Sendable where Slot: Sendable {}
