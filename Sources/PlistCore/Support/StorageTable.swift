/// Values by container storage (`StorageIdentity`): what the writers remember of containers
/// they have met, so that one shared many times is handled once.
///
/// Open addressing with linear probing, at most half full. Storage addresses are the
/// allocator's, not chosen by any input, so a multiplicative hash of the address spreads them
/// with no seed; a `Dictionary` hashed each identity with the seeded SipHash, a tenth of the
/// time of writing a file of small containers.
struct StorageTable<Value> {
    // Invariant: `slots` is empty (nothing kept yet: a small write may never keep anything) or
    // 2^(64 - shift) slots, of which `count` are full.
    private var slots: [(identity: StorageIdentity, value: Value)?] = []
    private var shift: UInt64 = 60
    private var count = 0

    /// The value kept for `identity`, if any.
    subscript(identity: StorageIdentity) -> Value? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var slot = firstSlot(identity)
        while let entry = slots[slot] {
            if entry.identity == identity { return entry.value }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Keeps `value` for `identity`, in place of any value kept before.
    mutating func insert(_ value: Value, for identity: StorageIdentity) {
        if slots.isEmpty { slots = Array(repeating: nil, count: 16) }
        let mask = slots.count - 1
        var slot = firstSlot(identity)
        while let entry = slots[slot] {
            if entry.identity == identity {
                slots[slot] = (identity, value)
                return
            }
            slot = (slot + 1) & mask
        }
        slots[slot] = (identity, value)
        count += 1
        guard 2 * count > slots.count else { return }
        let old = slots
        slots = Array(repeating: nil, count: 2 * old.count)
        shift -= 1
        count = 0
        for case let (identity, value)? in old { insert(value, for: identity) }
    }

    /// Fibonacci hashing: the high bits of the address times 2^64 / φ.
    private func firstSlot(_ identity: StorageIdentity) -> Int {
        Int(truncatingIfNeeded: (UInt64(identity.address) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }
}
