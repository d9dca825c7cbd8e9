/// A property list read value by value as a decoder asks for it, without building the `Plist`
/// tree: its values are numbered (a binary file's objects, the nodes of an indexed XML document).
/// PlistKit's Codable decoder reads binary and XML documents through it.
///
/// The fast accessors (`integer`, `string`, ...) give a value only when the node holds exactly
/// that type and reads well; for anything else they give `nil`, and `scalar` reads the node as
/// a `Plist` (or throws the reader's error), so that conversions and errors are made in one place.
package protocol IndexedPlist: AnyObject {
    /// The top value.
    var top: Int { get }
    /// Whether `node` is an array, a dictionary or a scalar.
    func kind(of node: Int) -> IndexedKind
    /// The scalar at `node`; `nil` for an array or a dictionary.
    /// - Throws: `PlistError` when the node does not read (binary files are read lazily).
    func scalar(_ node: Int) throws(PlistError) -> Plist?
    /// The integer at `node`, if it is one.
    func integer(_ node: Int) -> PlistInteger?
    /// The real at `node`, if it is one.
    func real(_ node: Int) -> Double?
    /// The string at `node`, if it is one that reads directly (else `scalar` reads it).
    func string(_ node: Int) -> String?
    /// The Boolean at `node`, if it is one.
    func bool(_ node: Int) -> Bool?
    /// The date at `node`, as seconds since 2001-01-01 00:00:00 UTC, if it is one.
    func date(_ node: Int) -> Double?
    /// Whether `node` is the string `$null`, Foundation's `nil` inside containers.
    func isNull(_ node: Int) -> Bool
    /// The entries of the dictionary `node`, entered inside `depth` containers.
    /// - Throws: `PlistError` for a dictionary that does not read, or one too deep.
    func dictionary(_ node: Int, depth: Int) throws(PlistError) -> IndexedDictionary
    /// Every entry of the dictionary `node` with its exact key, in order (a `Plist` subtree
    /// keeps keys that `String` calls equal apart; `dictionary` merges them).
    /// - Throws: `PlistError` for a dictionary that does not read, or one too deep.
    func exactEntries(_ node: Int, depth: Int) throws(PlistError) -> [(key: String, value: Int)]
    /// The elements of the array `node`, entered inside `depth` containers.
    /// - Throws: `PlistError` for an array that does not read, or one too deep.
    func array(_ node: Int, depth: Int) throws(PlistError) -> IndexedElements
    /// The node of element `index` of `elements`.
    func element(_ index: Int, of elements: IndexedElements) -> Int
    /// The text of key `index` of `entries`.
    func key(_ index: Int, of entries: IndexedEntries) -> String
    /// The node of value `index` of `entries`.
    func value(_ index: Int, of entries: IndexedEntries) -> Int
    /// The index and value node of the entry whose key is `key`, trying entry `hint` first.
    func entry(forKey key: String, in entries: IndexedEntries, hint: Int) -> (index: Int, value: Int)?
    /// Where `node` is, for error messages: `, at byte N`, or empty.
    func location(of node: Int) -> String
    /// The subtree at `node` as a `Plist`, entered inside `depth` containers.
    /// - Throws: `PlistError` for a value that does not read, or one too deep.
    func plist(_ node: Int, depth: Int) throws(PlistError) -> Plist
    /// The value at `node` when the document holds it whole (a `Plist` tree), for error messages
    /// to quote; `nil` for a document read value by value.
    func heldValue(of node: Int) -> Plist?
}

/// What an indexed node holds.
package enum IndexedKind {
    case array, dictionary, scalar
}

/// A dictionary of an `IndexedPlist`.
package enum IndexedDictionary {
    /// Entries the format reads in place.
    case entries(IndexedEntries)
    /// Keys and value nodes read into arrays (a binary dictionary with repeated keys or keys
    /// that are not ASCII); a repeated key keeps its first place and its last value.
    case listed(keys: [String], values: [Int])
}

/// The entries of a dictionary in an `IndexedPlist`, as its format lays them out.
package struct IndexedEntries {
    /// The dictionary's node.
    package let node: Int
    /// How many entries.
    package let count: Int
    /// Where the format finds the entries (a byte offset, or the first child's number).
    package let base: Int

    package init(node: Int, count: Int, base: Int) {
        self.node = node
        self.count = count
        self.base = base
    }
}

/// The elements of an array in an `IndexedPlist`.
package struct IndexedElements {
    /// How many elements.
    package let count: Int
    /// Where the format finds the elements (a byte offset, or the first child's number).
    package let base: Int

    package init(count: Int, base: Int) {
        self.count = count
        self.base = base
    }
}

extension IndexedPlist {
    /// The subtree, built value by value from the document.
    package func plist(_ node: Int, depth: Int) throws(PlistError) -> Plist {
        if let scalar = try scalar(node) { return scalar }
        if kind(of: node) == .array {
            let elements = try array(node, depth: depth)
            var result: [Plist] = []
            result.reserveCapacity(elements.count)
            for index in 0..<elements.count {
                result.append(try plist(element(index, of: elements), depth: depth + 1))
            }
            return .array(result)
        }
        var result = PlistDictionary()
        for (key, value) in try exactEntries(node, depth: depth) {
            result[key] = try plist(value, depth: depth + 1)
        }
        return .dictionary(result)
    }

    package func heldValue(of node: Int) -> Plist? { nil }

    /// The entries `dictionary` gives, for a format whose entries keep every key.
    package func exactEntries(_ node: Int, depth: Int) throws(PlistError) -> [(key: String, value: Int)] {
        switch try dictionary(node, depth: depth) {
        case .entries(let entries): (0..<entries.count).map { (key($0, of: entries), value($0, of: entries)) }
        case .listed(let keys, let values): zip(keys, values).map { (key: $0, value: $1) }
        }
    }
}
