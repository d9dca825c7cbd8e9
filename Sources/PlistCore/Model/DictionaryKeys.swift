/// The keys of a `PlistDictionary`, in order, found by their exact spelling: two keys are the
/// same key exactly when their UTF-8 bytes are (so, their Unicode scalars), as CoreFoundation,
/// libplist and plistlib compare them. Swift's `String` equality would merge canonically
/// equivalent spellings ("e\u{301}" and "\u{E9}") and normalizes a key to hash it.
///
/// Dictionaries read with the same keys share one `DictionaryKeys` (the binary reader gives all
/// dictionaries with the same key references one), so its storage is immutable while shared:
/// `PlistDictionary` copies it before changing it unless it holds the only reference.
///
/// Up to `linearLimit` keys are searched one by one. Beyond, a `HashSlots` table (`OrderedKeys`)
/// holds per slot, in 32 bits, a key's index plus one and as many bits of its hash as are left,
/// so that most probes that miss compare no bytes; the hash is `SeededHash`, seeded per process,
/// so that no input can make the table quadratic. At 4 bytes a slot, a table costs 8 to 16 bytes
/// per key.
package final class DictionaryKeys: @unchecked Sendable {
    // @unchecked Sendable, and `@exclusivity(unchecked)` on `list`: the keys are changed only
    // through a reference known to be unique (`PlistDictionary.makeKeysUnique`) or by the reader
    // that made them, never while another holder can read them, so no two accesses overlap.
    // Unchecked, a lookup costs no runtime exclusivity check (a writer reads every key of
    // every dictionary, and those checks were a visible part of writing).
    @exclusivity(unchecked) private var list: OrderedKeys

    /// No keys: what every empty dictionary starts with (never changed: it is never uniquely
    /// referenced).
    package static let none = DictionaryKeys(OrderedKeys())

    /// Dictionaries of at most this many keys have no table.
    static var linearLimit: Int { OrderedKeys.linearLimit }

    private init(_ list: OrderedKeys) {
        unsafe self.list = list
    }

    package convenience init() {
        self.init(OrderedKeys())
    }

    package convenience init(minimumCapacity: Int) {
        var list = OrderedKeys()
        list.keys.reserveCapacity(minimumCapacity)
        self.init(list)
    }

    /// The keys `keys`, which must all differ (a reader checked them).
    package convenience init(uncheckedUnique keys: [String]) {
        self.init(OrderedKeys(uncheckedUnique: keys))
    }

    /// `keys` if they all differ, else `nil`.
    package static func checking(_ keys: [String]) -> DictionaryKeys? {
        OrderedKeys(checking: keys).map(DictionaryKeys.init)
    }

    /// The keys, in order.
    package var keys: [String] { unsafe list.keys }

    /// Whether every key is ASCII (then equal as bytes is equal as Swift strings).
    package var isASCII: Bool { unsafe list.isASCII }

    package var count: Int { unsafe list.keys.count }

    package subscript(index: Int) -> String { unsafe list.keys[index] }

    /// The position of `key`, compared by its exact bytes.
    package func index(of key: String) -> Int? { unsafe list.index(of: key) }

    /// Appends `key` unless it is here already; returns whether it was appended.
    @discardableResult
    package func append(_ key: String) -> Bool { unsafe list.append(key) }

    /// Removes the key at `index`; the keys after it move one place up.
    package func remove(at index: Int) { unsafe list.remove(at: index) }

    /// Puts the keys in the order of `order`, the old positions in their new order.
    package func reorder(_ order: [Int]) { unsafe list.reorder(order) }

    package func removeAll(keepingCapacity: Bool) { unsafe list.removeAll(keepingCapacity: keepingCapacity) }

    package func reserveCapacity(_ capacity: Int) { unsafe list.keys.reserveCapacity(capacity) }

    /// A copy that can be changed without changing this one.
    package func copy() -> DictionaryKeys { DictionaryKeys(unsafe list) }
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

/// The key storages of the dictionaries a text reader has built, found again by their keys: a
/// document of many records with the same keys in the same order (an iTunes library's tracks, a
/// project's objects of one kind) keeps one `DictionaryKeys` per key sequence instead of one
/// keys array and table per dictionary, as the binary reader does by key references.
package struct SharedKeySets {
    /// Key storages by the hash of their key sequence (at most `limit`; later sequences are
    /// built but not remembered).
    private var sets: [UInt64: DictionaryKeys] = [:]

    private static var limit: Int { 4096 }

    package init() {}

    /// The dictionary of `keys` and `values` as readers build it (a repeated key keeps its
    /// first place and takes its last value), its keys shared with an earlier dictionary of
    /// the same keys in the same order. `areUnique` says the reader checked that no key repeats.
    package mutating func dictionary(keys: [String], values: [Plist], areUnique: Bool = false) -> PlistDictionary {
        var hash = SeededHash.word(UInt64(keys.count), tag: 0x4B)
        for key in keys { hash = SeededHash.word(hash ^ SeededHash.bytes(key.utf8.span), tag: 0x4B) }
        if let known = sets[hash], known.keys.count == keys.count,
            zip(known.keys, keys).allSatisfy({ $0.utf8.span.hasSameBytes(as: $1.utf8.span) })
        {
            return PlistDictionary(keys: known, values: values)
        }
        guard let unique = areUnique ? DictionaryKeys(uncheckedUnique: keys) : DictionaryKeys.checking(keys) else {
            return PlistDictionary(readingKeys: keys, values: values)
        }
        if sets.count < Self.limit, sets[hash] == nil { sets[hash] = unique }
        return PlistDictionary(keys: unique, values: values)
    }
}
