/// Values by container storage (`StorageIdentity`): what the writers remember of containers
/// they have met, so that one shared many times is handled once.
///
/// A `HashSlots` table of optional entries. Storage addresses are the allocator's, not chosen by
/// any input, so a multiplicative hash of the address spreads them with no seed; a `Dictionary`
/// hashed each identity with the seeded SipHash (docs/PERFORMANCE.md, "Containers memoized without
/// SipHash").
struct StorageTable<Value> {
    private struct Entry {
        let identity: StorageIdentity
        var value: Value
    }

    /// No slots until something is kept (a small write may never keep anything).
    private var table: HashSlots<Entry?>?

    /// The value kept for `identity`, if any.
    subscript(identity: StorageIdentity) -> Value? {
        guard let table else { return nil }
        return table[table.place(of: Self.hash(identity)) { $0?.identity == identity }]?.value
    }

    /// Keeps `value` for `identity`, in place of any value kept before.
    mutating func insert(_ value: Value, for identity: StorageIdentity) {
        if table == nil { table = HashSlots(capacity: 8) }
        let place = table!.place(of: Self.hash(identity)) { $0?.identity == identity }
        if table![place] != nil {
            table!.replace(place, with: Entry(identity: identity, value: value))
        } else {
            table!.fill(place, with: Entry(identity: identity, value: value)) { Self.hash($0!.identity) }
        }
    }

    /// Fibonacci hashing: the address times 2^64 / φ, whose high half holds what every bit of the
    /// address made.
    private static func hash(_ identity: StorageIdentity) -> Int {
        Int(truncatingIfNeeded: (UInt64(identity.address) &* 0x9E37_79B9_7F4A_7C15) >> 32)
    }
}
