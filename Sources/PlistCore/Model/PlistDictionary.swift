/// The entries of a property-list dictionary: `String` keys mapped to `Plist` values, in the
/// order they were read or inserted.
///
/// Keys are compared by their exact spelling, as CoreFoundation, libplist and Python's
/// `plistlib` compare them: `"e\u{301}"` (e and a combining accent) and `"\u{E9}"` (é) are two
/// keys, although Swift's `String` calls them equal. So every key a file holds survives reading
/// and writing. Nothing normalizes a key.
///
/// ```swift
/// var entries: PlistDictionary = ["CFBundleName": "Demo", "CFBundleVersion": "1"]
/// entries["CFBundleVersion"] = "2"          // replaces the value; the key keeps its place
/// entries["NSHumanReadableCopyright"] = "©" // appends a key
/// entries["CFBundleName"] = nil             // removes a key
/// for (key, value) in entries { print(key, value) }
/// ```
///
/// A `PlistDictionary` is a value (copy-on-write). It is a random-access collection of
/// `(key: String, value: Plist)` pairs indexed from 0. Two dictionaries are equal when they
/// hold the same keys with equal values, in any order, as `Plist` compares them.
///
/// Swift's `Dictionary` and swift-collections' `OrderedDictionary` compare keys as `String`s,
/// so converting to them merges keys that are canonically equivalent (see `Dictionary.init(_:)`).
public struct PlistDictionary: Sendable {
    /// The keys, possibly shared with other dictionaries (copied before a change).
    package private(set) var keyStorage: DictionaryKeys
    /// The values, one per key, in the keys' order.
    package private(set) var valueStorage: [Plist]

    /// An empty dictionary.
    public init() {
        keyStorage = DictionaryKeys.none
        valueStorage = []
    }

    /// An empty dictionary with room for `minimumCapacity` entries.
    public init(minimumCapacity: Int) {
        keyStorage = minimumCapacity > 0 ? DictionaryKeys(minimumCapacity: minimumCapacity) : DictionaryKeys.none
        valueStorage = []
        valueStorage.reserveCapacity(minimumCapacity)
    }

    /// The dictionary of `keys` (which a reader may share among many dictionaries) and `values`,
    /// one per key.
    package init(keys: DictionaryKeys, values: [Plist]) {
        precondition(keys.count == values.count, "PlistDictionary: one value per key")
        keyStorage = keys
        valueStorage = values
    }

    /// The dictionary of `keys`, which must all differ (a reader checked them), and `values`.
    package init(uncheckedUniqueKeys keys: [String], values: [Plist]) {
        self.init(keys: DictionaryKeys(uncheckedUnique: keys), values: values)
    }

    /// The dictionary of `keys` and `values` as readers build it: a repeated key keeps its
    /// first place and takes its last value.
    package init(readingKeys keys: [String], values: [Plist]) {
        if let unique = DictionaryKeys.checking(keys) {
            self.init(keys: unique, values: values)
            return
        }
        self.init(minimumCapacity: keys.count)
        for (key, value) in zip(keys, values) { self[key] = value }
    }

    /// The keys, in order.
    public var keys: Keys { Keys(storage: keyStorage) }

    /// The values, in the keys' order; they can be changed in place.
    public var values: Values {
        get { Values(elements: valueStorage) }
        _modify {
            var view = Values(elements: [])
            swap(&view.elements, &valueStorage)
            defer { swap(&view.elements, &valueStorage) }
            yield &view
        }
    }

    /// The value for `key`, or `nil`. Setting a value replaces the value of an existing key (the
    /// key keeps its place) or appends the key; setting `nil` removes the key.
    public subscript(key: String) -> Plist? {
        get {
            guard let index = keyStorage.index(of: key) else { return nil }
            return valueStorage[index]
        }
        set {
            if let index = keyStorage.index(of: key) {
                if let newValue {
                    valueStorage[index] = newValue
                } else {
                    makeKeysUnique()
                    keyStorage.remove(at: index)
                    valueStorage.remove(at: index)
                }
            } else if let newValue {
                makeKeysUnique()
                keyStorage.append(key)
                valueStorage.append(newValue)
            }
        }
    }

    /// The value for `key`, or `defaultValue` when the key is absent; setting it sets the key.
    public subscript(key: String, default defaultValue: @autoclosure () -> Plist) -> Plist {
        get { self[key] ?? defaultValue() }
        set { self[key] = newValue }
    }

    /// The position of `key`, or `nil`.
    public func index(forKey key: String) -> Int? {
        keyStorage.index(of: key)
    }

    /// Sets the value of `key` as the subscript does; returns the value it replaced, if any.
    @discardableResult
    public mutating func updateValue(_ value: Plist, forKey key: String) -> Plist? {
        let old = self[key]
        self[key] = value
        return old
    }

    /// Removes `key`; returns its value, if it was there.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> Plist? {
        let old = self[key]
        if old != nil { self[key] = nil }
        return old
    }

    /// Removes the entry at `index` (the entries after it move up); returns it.
    @discardableResult
    public mutating func remove(at index: Int) -> Element {
        let removed = self[index]
        makeKeysUnique()
        keyStorage.remove(at: index)
        valueStorage.remove(at: index)
        return removed
    }

    /// Removes every entry.
    public mutating func removeAll(keepingCapacity: Bool = false) {
        makeKeysUnique()
        keyStorage.removeAll(keepingCapacity: keepingCapacity)
        valueStorage.removeAll(keepingCapacity: keepingCapacity)
    }

    /// Makes room for `capacity` entries.
    public mutating func reserveCapacity(_ capacity: Int) {
        makeKeysUnique()
        keyStorage.reserveCapacity(capacity)
        valueStorage.reserveCapacity(capacity)
    }

    /// A dictionary of the same keys, in the same order, with `transform` applied to each value.
    /// The new dictionary shares this one's keys.
    public func mapValues(_ transform: (Plist) throws -> Plist) rethrows -> PlistDictionary {
        var values: [Plist] = []
        values.reserveCapacity(count)
        for value in valueStorage { values.append(try transform(value)) }
        return PlistDictionary(keys: keyStorage, values: values)
    }

    /// The entries whose `transform`ed value is not `nil`, with that value, in order.
    public func compactMapValues(_ transform: (Plist) throws -> Plist?) rethrows -> PlistDictionary {
        var result = PlistDictionary()
        for index in indices {
            if let value = try transform(valueStorage[index]) { result.append(keyStorage[index], value) }
        }
        return result
    }

    /// The entries for which `isIncluded` is true, in order.
    public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> PlistDictionary {
        var result = PlistDictionary()
        for element in self {
            if try isIncluded(element) { result.append(element.key, element.value) }
        }
        return result
    }

    /// Adds the entries of `other` in its order: a new key is appended, and for a key already
    /// here `combine` gets the value here and `other`'s and gives the one kept (in place).
    public mutating func merge<S: Sequence>(
        _ other: S, uniquingKeysWith combine: (Plist, Plist) throws -> Plist
    ) rethrows where S.Element == (key: String, value: Plist) {
        for (key, value) in other { try merge(key, value, combine) }
    }

    /// Adds the pairs of `other` in its order, as `merge(_:uniquingKeysWith:)` adds entries.
    public mutating func merge<S: Sequence>(
        _ other: S, uniquingKeysWith combine: (Plist, Plist) throws -> Plist
    ) rethrows where S.Element == (String, Plist) {
        for (key, value) in other { try merge(key, value, combine) }
    }

    private mutating func merge(
        _ key: String, _ value: Plist, _ combine: (Plist, Plist) throws -> Plist
    ) rethrows {
        if let index = keyStorage.index(of: key) {
            valueStorage[index] = try combine(valueStorage[index], value)
        } else {
            append(key, value)
        }
    }

    /// This dictionary with the entries of `other` added, as `merge(_:uniquingKeysWith:)` adds them.
    public func merging<S: Sequence>(
        _ other: S, uniquingKeysWith combine: (Plist, Plist) throws -> Plist
    ) rethrows -> PlistDictionary where S.Element == (key: String, value: Plist) {
        var result = self
        try result.merge(other, uniquingKeysWith: combine)
        return result
    }

    /// Puts the entries in the order writers sort keys in, CoreFoundation's: by UTF-16 code
    /// units, not normalized, not case-folded ("Z" < "a" < "é").
    public mutating func sort() {
        guard let order = KeyOrder.sortedOrder(keyStorage.keys) else { return }
        reorder(order)
    }

    /// Puts the entries in the order `areInIncreasingOrder` gives (a stable sort).
    public mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
        var order = Array(indices)
        // Stable: entries neither precedes keep their order.
        try order.sort { a, b in
            let (x, y) = (self[a], self[b])
            if try areInIncreasingOrder(x, y) { return true }
            return try areInIncreasingOrder(y, x) ? false : a < b
        }
        reorder(order)
    }

    /// Appends `key`, which must not be here, with `value`.
    private mutating func append(_ key: String, _ value: Plist) {
        makeKeysUnique()
        keyStorage.append(key)
        valueStorage.append(value)
    }

    private mutating func reorder(_ order: [Int]) {
        makeKeysUnique()
        keyStorage.reorder(order)
        valueStorage = order.map { valueStorage[$0] }
    }

    /// Copies the keys unless this dictionary holds the only reference to them.
    private mutating func makeKeysUnique() {
        if !isKnownUniquelyReferenced(&keyStorage) { keyStorage = keyStorage.copy() }
    }
}

extension PlistDictionary: RandomAccessCollection {
    public typealias Element = (key: String, value: Plist)
    public typealias Index = Int
    public typealias Indices = Range<Int>

    public var startIndex: Int { 0 }
    public var endIndex: Int { valueStorage.count }
    public var count: Int { valueStorage.count }
    public var isEmpty: Bool { valueStorage.isEmpty }

    /// The entry at `position`.
    public subscript(position: Int) -> Element {
        (keyStorage[position], valueStorage[position])
    }
}

extension PlistDictionary {
    /// The keys of a `PlistDictionary`, in order.
    ///
    /// `contains(_:)` and `firstIndex(of:)` compare keys by their exact spelling, as the
    /// dictionary does.
    public struct Keys: RandomAccessCollection, Sendable {
        let storage: DictionaryKeys

        public var startIndex: Int { 0 }
        public var endIndex: Int { storage.count }
        public subscript(position: Int) -> String { storage[position] }

        /// Whether `key` is one of the keys, spelled exactly so.
        public func contains(_ key: String) -> Bool { storage.index(of: key) != nil }

        /// The position of `key`, spelled exactly so.
        public func firstIndex(of key: String) -> Int? { storage.index(of: key) }

        /// The keys as an array.
        public var elements: [String] { storage.keys }
    }

    /// The values of a `PlistDictionary`, in its keys' order.
    public struct Values: RandomAccessCollection, MutableCollection, Sendable {
        var elements: [Plist]

        public var startIndex: Int { 0 }
        public var endIndex: Int { elements.count }
        public subscript(position: Int) -> Plist {
            get { elements[position] }
            set { elements[position] = newValue }
        }
    }
}

extension PlistDictionary: ExpressibleByDictionaryLiteral {
    /// The entries of the literal, in its order; a repeated key traps, as with `Dictionary`.
    public init(dictionaryLiteral elements: (String, Plist)...) {
        self.init(uniqueKeysWithValues: elements)
    }
}

extension PlistDictionary {
    /// The pairs of `keysAndValues` in their order; a repeated key traps.
    ///
    /// From a Swift `Dictionary` the order is its iteration order; `sort()` puts the keys in
    /// CoreFoundation's order.
    public init<S: Sequence>(uniqueKeysWithValues keysAndValues: S) where S.Element == (String, Plist) {
        self.init(minimumCapacity: keysAndValues.underestimatedCount)
        for (key, value) in keysAndValues { appendUnique(key, value) }
    }

    private mutating func appendUnique(_ key: String, _ value: Plist) {
        precondition(keyStorage.index(of: key) == nil, "PlistDictionary: duplicate key \(key.debugDescription)")
        append(key, value)
    }

    /// The entries of `keysAndValues` (another dictionary, a Swift `Dictionary` or an
    /// `OrderedDictionary`) in their order; a repeated key traps.
    public init<S: Sequence>(uniqueKeysWithValues keysAndValues: S) where S.Element == (key: String, value: Plist) {
        self.init(minimumCapacity: keysAndValues.underestimatedCount)
        for (key, value) in keysAndValues { appendUnique(key, value) }
    }

    /// The pairs of `keysAndValues` in their order; for a repeated key, `combine` gets the value
    /// kept so far and the new one and gives the one kept (the key keeps its first place).
    public init<S: Sequence>(
        _ keysAndValues: S, uniquingKeysWith combine: (Plist, Plist) throws -> Plist
    ) rethrows where S.Element == (String, Plist) {
        self.init()
        try merge(keysAndValues, uniquingKeysWith: combine)
    }
}

extension PlistDictionary: Hashable {
    /// True when both hold the same keys (by exact spelling) with equal values, in any order.
    public static func == (lhs: PlistDictionary, rhs: PlistDictionary) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.keyStorage === rhs.keyStorage { return lhs.valueStorage == rhs.valueStorage }
        for (key, value) in lhs {
            guard let other = rhs[key], other == value else { return false }
        }
        return true
    }

    /// Hashes the entries in any order, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        var entries: UInt64 = 0
        for index in indices {
            var entry = Hasher()
            entry.combine(SeededHash.bytes(keyStorage[index].utf8.span))
            entry.combine(valueStorage[index])
            entries ^= UInt64(bitPattern: Int64(entry.finalize()))
        }
        hasher.combine(entries)
    }
}

extension PlistDictionary: CustomStringConvertible {
    /// The entries in Swift literal syntax, as `Plist.description` writes a dictionary.
    public var description: String { Plist.dictionary(self).description }
}

extension Dictionary where Key == String, Value == Plist {
    /// The entries of `entries` in a Swift dictionary.
    ///
    /// Swift's `String` compares canonically equivalent spellings as equal, so keys that
    /// `PlistDictionary` keeps apart (`"e\u{301}"` and `"\u{E9}"`) become one key here: the
    /// first spelling, with the last of their values (as Foundation's `PropertyListDecoder`
    /// decodes such a dictionary).
    public init(_ entries: PlistDictionary) {
        self.init(minimumCapacity: entries.count)
        for (key, value) in entries { self[key] = value }
    }
}

// Apart from the methods that give a `PlistDictionary`: the closure's result type picks the
// overload, as with Swift's `Dictionary`.
extension PlistDictionary {
    /// A Swift dictionary of the same keys with `transform` applied to each value:
    /// `entries.mapValues { $0.string ?? "" }` is a `[String: String]`. Two keys that differ in
    /// their bytes but that `String` calls equal (two spellings of `é`) are one key of the
    /// result: the later entry's value wins, as in Foundation's dictionaries.
    public func mapValues<T>(_ transform: (Plist) throws -> T) rethrows -> [String: T] {
        var result: [String: T] = [:]
        result.reserveCapacity(count)
        for index in indices { result[keyStorage[index]] = try transform(valueStorage[index]) }
        return result
    }

    /// A Swift dictionary of the keys whose `transform`ed value is not `nil`, with that value;
    /// keys that `String` calls equal are one key (the later entry wins).
    public func compactMapValues<T>(_ transform: (Plist) throws -> T?) rethrows -> [String: T] {
        var result: [String: T] = [:]
        for index in indices {
            if let value = try transform(valueStorage[index]) { result[keyStorage[index]] = value }
        }
        return result
    }
}
