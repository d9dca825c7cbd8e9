/// The keys of a `PlistDictionary`, in order, found by their exact spelling: two keys are the
/// same key exactly when their UTF-8 bytes are (so, their Unicode scalars), as CoreFoundation,
/// libplist and plistlib compare them. Swift's `String` equality would merge canonically
/// equivalent spellings ("e\u{301}" and "\u{E9}") and normalizes a key to hash it.
///
/// Dictionaries read with the same keys share one `DictionaryKeys` (the binary reader gives all
/// dictionaries with the same key references one), so its storage is immutable while shared:
/// `PlistDictionary` copies it before changing it unless it holds the only reference.
///
/// Up to `linearLimit` keys are searched one by one. Beyond, an open-addressing table (linear
/// probing, at most half full) holds per slot a key's index plus one and 32 bits of its hash,
/// so that most probes that miss compare no bytes; the hash is `SeededHash`, seeded per
/// process, so that no input can make the table quadratic.
package final class DictionaryKeys: @unchecked Sendable {
    // @unchecked: the storage is changed only through a reference known to be unique
    // (`PlistDictionary.makeKeysUnique`), never while another holder can read it.

    package private(set) var keys: [String]
    /// Empty up to `linearLimit` keys; else a power of two of at least twice as many slots as
    /// keys, each 0 (empty) or the 32 high bits of a key's hash above its index plus one.
    private var slots: [UInt64] = []
    /// Whether every key is ASCII (then equal as bytes is equal as Swift strings).
    package private(set) var isASCII = true

    /// No keys: what every empty dictionary starts with (never changed: it is never uniquely
    /// referenced).
    package static let none = DictionaryKeys()

    /// Dictionaries of at most this many keys have no table.
    static var linearLimit: Int { 16 }

    package init() {
        keys = []
    }

    package init(minimumCapacity: Int) {
        keys = []
        keys.reserveCapacity(minimumCapacity)
    }

    /// The keys `keys`, which must all differ (a reader checked them).
    package init(uncheckedUnique keys: [String]) {
        self.keys = keys
        for key in keys where !key.utf8.span.isASCII {
            isASCII = false
            break
        }
        if keys.count > Self.linearLimit { rebuildTable() }
    }

    /// `keys` if they all differ, else `nil`.
    package static func checking(_ keys: [String]) -> DictionaryKeys? {
        let made = DictionaryKeys(minimumCapacity: keys.count)
        for key in keys where !made.append(key) { return nil }
        return made
    }

    package var count: Int { keys.count }

    package subscript(index: Int) -> String { keys[index] }

    /// The position of `key`, compared by its exact bytes.
    package func index(of key: String) -> Int? {
        let wanted = key.utf8.span
        guard !slots.isEmpty else {
            for index in keys.indices where keys[index].utf8.span.hasSameBytes(as: wanted) { return index }
            return nil
        }
        let hash = SeededHash.bytes(wanted)
        let tag = hash >> 32
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            let entry = slots[slot]
            if entry >> 32 == tag {
                let index = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1
                if keys[index].utf8.span.hasSameBytes(as: wanted) { return index }
            }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Appends `key` unless it is here already; returns whether it was appended.
    @discardableResult
    package func append(_ key: String) -> Bool {
        if keys.count < Self.linearLimit {
            guard index(of: key) == nil else { return false }
            keys.append(key)
        } else {
            if slots.isEmpty { rebuildTable() }
            guard insertInTable(key, index: keys.count) else { return false }
            keys.append(key)
            if 2 * keys.count > slots.count { rebuildTable() }
        }
        if isASCII, !key.utf8.span.isASCII { isASCII = false }
        return true
    }

    /// Removes the key at `index`; the keys after it move one place up.
    package func remove(at index: Int) {
        keys.remove(at: index)
        if keys.allSatisfy({ $0.utf8.span.isASCII }) { isASCII = true }
        if keys.count > Self.linearLimit {
            rebuildTable()
        } else {
            slots = []
        }
    }

    /// Puts the keys in the order of `order`, the old positions in their new order.
    package func reorder(_ order: [Int]) {
        keys = order.map { keys[$0] }
        if !slots.isEmpty { rebuildTable() }
    }

    package func removeAll(keepingCapacity: Bool) {
        keys.removeAll(keepingCapacity: keepingCapacity)
        slots = []
        isASCII = true
    }

    package func reserveCapacity(_ capacity: Int) {
        keys.reserveCapacity(capacity)
    }

    /// A copy that can be changed without changing this one.
    package func copy() -> DictionaryKeys {
        let made = DictionaryKeys()
        made.keys = keys
        made.slots = slots
        made.isASCII = isASCII
        return made
    }

    /// Puts `key` (at `index`) in the table unless an equal key is there; returns whether it was put.
    private func insertInTable(_ key: String, index: Int) -> Bool {
        let bytes = key.utf8.span
        let hash = SeededHash.bytes(bytes)
        let tag = hash >> 32
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            let entry = slots[slot]
            if entry >> 32 == tag,
                keys[Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1].utf8.span.hasSameBytes(as: bytes)
            {
                return false
            }
            slot = (slot + 1) & mask
        }
        slots[slot] = tag << 32 | UInt64(index + 1)
        return true
    }

    /// Makes the table anew for the keys there are, with room for as many again.
    private func rebuildTable() {
        var size = 32
        while size < 4 * keys.count { size *= 2 }
        slots = Array(repeating: 0, count: size)
        for index in keys.indices { _ = insertInTable(keys[index], index: index) }
    }
}

/// A `String` compared and hashed by its exact UTF-8 bytes, as `PlistDictionary` compares its
/// keys: the key of the package's other maps of dictionary keys (a keyed archive's fields, a
/// preferences domain's pending changes), which `String` keys would merge.
package struct ExactKey: Hashable, Sendable {
    package let string: String

    package init(_ string: String) {
        self.string = string
    }

    package static func == (lhs: ExactKey, rhs: ExactKey) -> Bool {
        lhs.string.utf8.span.hasSameBytes(as: rhs.string.utf8.span)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(SeededHash.bytes(string.utf8.span))
    }
}
