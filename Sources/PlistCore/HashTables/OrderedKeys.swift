/// Keys in order and, past `linearLimit` of them, their table: what a `DictionaryKeys` holds.
struct OrderedKeys {
    var keys: [String] = []
    /// None up to `linearLimit` keys; else 2^`indexBits` slots, at least twice as many as keys,
    /// each holding a key's index plus one in the low `indexBits` bits and the top bits of its
    /// hash above them.
    private var table: HashSlots<UInt32>?
    private var indexBits: UInt32 = 0
    private(set) var isASCII = true

    static var linearLimit: Int { 16 }

    init() {}

    init(uncheckedUnique keys: [String]) {
        self.keys = keys
        isASCII = keys.allSatisfy(Self.isASCII)
        if keys.count > Self.linearLimit { rebuildTable() }
    }

    /// `keys` if they all differ, else `nil`.
    init?(checking keys: [String]) {
        self.keys = keys
        if keys.count > Self.linearLimit {
            makeTable(capacity: keys.count)
            for index in keys.indices where !insertInTable(keys[index], index: index) { return nil }
        } else {
            guard Self.allDiffer(keys.span) else { return nil }
        }
        isASCII = keys.allSatisfy(Self.isASCII)
    }

    func index(of key: String) -> Int? {
        let wanted = key.utf8.span
        guard let table else {
            for index in keys.indices where keys[index].utf8.span.hasSameBytes(as: wanted) { return index }
            return nil
        }
        let place = table.place(of: wanted, hash: SeededHash.bytes(wanted), keys: keys, indexBits: indexBits)
        return table[place].isEmpty ? nil : Int(table[place] & (1 << indexBits - 1)) - 1
    }

    mutating func append(_ key: String) -> Bool {
        if keys.count < Self.linearLimit {
            guard index(of: key) == nil else { return false }
            keys.append(key)
        } else {
            // Grown to twice the keys, so that a dictionary filled key by key rehashes O(1) times a key.
            if table == nil || 2 * (keys.count + 1) > 1 << indexBits { rebuildTable(capacity: 2 * (keys.count + 1)) }
            guard insertInTable(key, index: keys.count) else { return false }
            keys.append(key)
        }
        if isASCII, !key.utf8.span.isASCII { isASCII = false }
        return true
    }

    mutating func remove(at index: Int) {
        keys.remove(at: index)
        if !isASCII { isASCII = keys.allSatisfy(Self.isASCII) }
        if keys.count > Self.linearLimit {
            rebuildTable()
        } else {
            table = nil
        }
    }

    mutating func reorder(_ order: [Int]) {
        keys = order.map { keys[$0] }
        if table != nil { rebuildTable() }
    }

    mutating func removeAll(keepingCapacity: Bool) {
        keys.removeAll(keepingCapacity: keepingCapacity)
        table = nil
        isASCII = true
    }

    /// Whether `key` is ASCII: known from a native string's flag (as the binary reader's ASCII
    /// strings are), else read.
    private static func isASCII(_ key: String) -> Bool {
        let text = key.utf8Span
        return text.isKnownASCII || text.span.isASCII
    }

    /// Whether no two of `keys` have the same bytes, comparing each with those before it: for
    /// a few keys. Through a span, which lends each string without retaining it.
    private static func allDiffer(_ keys: Span<String>) -> Bool {
        for index in 1..<Swift.max(1, keys.count) {
            let key = keys[index].utf8.span
            for other in 0..<index where keys[other].utf8.span.hasSameBytes(as: key) { return false }
        }
        return true
    }

    /// The bits of `hash` kept beside an index: its top `32 - indexBits` bits.
    @inline(__always)
    fileprivate static func tag(_ hash: UInt64, indexBits: UInt32) -> UInt32 {
        UInt32(truncatingIfNeeded: hash >> 32) >> indexBits
    }

    /// Puts `key` (at `index`) in the table unless an equal key is there; returns whether it was put.
    private mutating func insertInTable(_ key: String, index: Int) -> Bool {
        let bytes = key.utf8.span
        let hash = SeededHash.bytes(bytes)
        let place = table!.place(of: bytes, hash: hash, keys: keys, indexBits: indexBits)
        guard table![place].isEmpty else { return false }
        table!.fill(place, with: Self.tag(hash, indexBits: indexBits) << indexBits | UInt32(index + 1))
        return true
    }

    /// An empty table with room for `capacity` keys.
    private mutating func makeTable(capacity: Int) {
        table = HashSlots(capacity: capacity, minimumCount: 32)
        indexBits = UInt32(table!.slotCount.trailingZeroBitCount)
    }

    /// Makes the table anew for the keys there are, with room for `capacity` keys.
    private mutating func rebuildTable(capacity: Int? = nil) {
        makeTable(capacity: capacity ?? keys.count)
        for index in keys.indices { _ = insertInTable(keys[index], index: index) }
    }
}

extension HashSlots<UInt32> {
    /// The place of the key `bytes` (with `hash`) in the table of `keys`, whose slots hold an
    /// index in their low `indexBits` bits, or of the empty slot where it belongs.
    @inline(__always)
    fileprivate func place(of bytes: Span<UInt8>, hash: UInt64, keys: [String], indexBits: UInt32) -> Int {
        let tag = OrderedKeys.tag(hash, indexBits: indexBits)
        return place(of: Int(truncatingIfNeeded: hash)) { slot in
            slot >> indexBits == tag
                && keys[Int(slot & (1 << indexBits - 1)) - 1].utf8.span.hasSameBytes(as: bytes)
        }
    }
}
