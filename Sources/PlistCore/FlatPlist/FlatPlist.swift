#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// A property list held in a few flat arrays: what PlistKit's Codable encoder builds, because
/// appending a node costs far less than making `Plist` values, and what the binary and XML
/// writers write from directly (`binaryBytes`, `xmlBytes`; `plist(at:)` gives the tree for the
/// other formats).
///
/// Every value is a node. A container's children are linked in the order they were added, so a
/// container can be filled after later siblings were added, as Codable allows. A dictionary's
/// children are its entries, each carrying its key's number. A key added again to the same
/// dictionary keeps its first place and takes the last value, as in `Plist`'s dictionaries; the
/// readers of this storage (the writers and `plist(at:)`) resolve that.
package struct FlatPlist {
    package enum Kind: UInt8, BitwiseCopyable {
        case dictionary, array, string, signed, unsigned, real, bool, date, data
    }

    package struct Node: BitwiseCopyable {
        package var kind: Kind
        /// `indexed` for a dictionary with an entry in `entryIndexes` (in what was padding).
        var flags: UInt8 = 0
        /// The number of the entry's key (in `keys`), for a dictionary's child; -1 otherwise.
        package var key: Int32
        /// The next child of the same container, or -1.
        package var next: Int32
        /// Strings and data: the length of their bytes. Containers: how many children they have.
        package var count: UInt32
        /// Integers, reals and dates: their bits (`signed` an `Int64`, `unsigned` a `UInt64`
        /// above `Int64.max`, dates seconds since 2001). Booleans: 0 or 1. Strings (UTF-8) and
        /// data: where their bytes start in `bytes`. Containers: the first child in the low 32
        /// bits and the last child in the high 32 bits.
        package var payload: UInt64
    }

    /// A scalar to add.
    package enum Scalar {
        case string(String)
        case signed(Int64)
        case unsigned(UInt64)
        case real(Double)
        case bool(Bool)
        case date(Date)
        case data(Data)
    }

    package private(set) var nodes: [Node] = []
    /// The bytes of every string (UTF-8) and data.
    package private(set) var bytes: [UInt8] = []
    package private(set) var keys = FlatKeys()
    /// For the dictionaries flagged `indexed`: per key number, the last entry with that key.
    /// Made for a dictionary of more than `scannedEntries` entries the first time
    /// `lastEntry(of:key:)` looks in it, and kept up to date as entries are added.
    private var entryIndexes: [Int32: [Int32: Int32]] = [:]
    private static let indexed: UInt8 = 1
    /// Dictionaries of at most this many entries are searched one entry at a time.
    private static let scannedEntries = 16

    /// The most bytes one string or data may have.
    package static let maxLength = Int(UInt32.max)

    package init() {}

    /// Adds a scalar as the last child of `parent` (-1 for the top value), under the key `key`
    /// when `parent` is a dictionary; returns its node.
    /// - Throws: `.outputTooLarge` for a string or data longer than `maxLength` bytes.
    @discardableResult
    package mutating func add(_ scalar: Scalar, to parent: Int32, key: Key) throws(PlistError) -> Int32 {
        let node = Int32(nodes.count)
        let made = try make(scalar)
        nodes.reserveLarge(adding: 1)
        nodes.append(made)
        link(node, to: parent, key: key)
        return node
    }

    /// Adds an empty container as the last child of `parent` (-1 for the top value), under
    /// `key` when `parent` is a dictionary; returns its node.
    package mutating func addContainer(_ kind: Kind, to parent: Int32, key: Key) -> Int32 {
        let node = Int32(nodes.count)
        nodes.reserveLarge(adding: 1)
        nodes.append(Node(kind: kind, flags: 0, key: -1, next: -1, count: 0, payload: 0))
        link(node, to: parent, key: key)
        return node
    }

    /// The key of a value added to a container.
    package enum Key {
        /// An array's element, or the top value.
        case none
        /// A dictionary's entry, by the key's name.
        case name(String)
        /// A dictionary's entry, by the key's number (`keyNumber(of:)`).
        case number(Int32)
    }

    /// The number of the key `name`, which `add` takes as `.number`.
    package mutating func keyNumber(of name: String) -> Int32 { keys.number(of: name) }

    /// Makes `node` the scalar `scalar`, in its place; what it held before is dropped.
    /// - Throws: `.outputTooLarge` as `add`.
    package mutating func set(_ node: Int32, to scalar: Scalar) throws(PlistError) {
        let made = try make(scalar)
        dropIndex(of: node)
        nodes[Int(node)].kind = made.kind
        nodes[Int(node)].count = made.count
        nodes[Int(node)].payload = made.payload
    }

    /// Makes `node` an empty container of `kind`, in its place, unless it is one already
    /// (then it keeps its children).
    package mutating func setContainer(_ node: Int32, to kind: Kind) {
        guard nodes[Int(node)].kind != kind else { return }
        dropIndex(of: node)
        nodes[Int(node)].kind = kind
        nodes[Int(node)].count = 0
        nodes[Int(node)].payload = 0
    }

    private mutating func make(_ scalar: Scalar) throws(PlistError) -> Node {
        var node = Node(kind: .string, flags: 0, key: -1, next: -1, count: 0, payload: 0)
        switch scalar {
        case .string(let string):
            node.payload = UInt64(bytes.count)
            node.count = try length(string.utf8.count)
            bytes.reserveLarge(adding: Int(node.count))
            bytes.append(contentsOf: string.utf8)
        case .signed(let value):
            node.kind = .signed
            node.payload = UInt64(bitPattern: value)
        case .unsigned(let value):
            node.kind = value > UInt64(Int64.max) ? .unsigned : .signed
            node.payload = value
        case .real(let value):
            node.kind = .real
            node.payload = value.bitPattern
        case .bool(let value):
            node.kind = .bool
            node.payload = value ? 1 : 0
        case .date(let date):
            node.kind = .date
            node.payload = date.timeIntervalSinceReferenceDate.bitPattern
        case .data(let data):
            node.kind = .data
            node.payload = UInt64(bytes.count)
            node.count = try length(data.count)
            bytes.reserveLarge(adding: data.count)
            bytes.append(contentsOf: data)
        }
        return node
    }

    private func length(_ count: Int) throws(PlistError) -> UInt32 {
        guard let length = UInt32(exactly: count) else {
            throw PlistError(.outputTooLarge(limit: Self.maxLength), at: 0)
        }
        return length
    }

    /// Links `node` as the last child of `parent`. A value with a key for an array, or without
    /// one for a dictionary (written through a container whose value was replaced by another
    /// kind of container since) is left out.
    private mutating func link(_ node: Int32, to parent: Int32, key: Key) {
        guard parent >= 0 else { return }
        let container = nodes[Int(parent)]
        let last = Int32(truncatingIfNeeded: container.payload >> 32)
        switch key {
        case .none: guard container.kind != .dictionary else { return }
        case .name(let name):
            guard container.kind == .dictionary else { return }
            nodes[Int(node)].key = keys.number(of: name, after: container.count > 0 ? nodes[Int(last)].key : -1)
        case .number(let number):
            guard container.kind == .dictionary else { return }
            nodes[Int(node)].key = number
        }
        if container.flags & Self.indexed != 0 { entryIndexes[parent]![nodes[Int(node)].key] = node }
        if container.count == 0 {
            nodes[Int(parent)].payload = UInt64(UInt32(node)) | UInt64(UInt32(node)) << 32
        } else {
            nodes[Int(last)].next = node
            nodes[Int(parent)].payload = container.payload & 0xFFFF_FFFF | UInt64(UInt32(node)) << 32
        }
        nodes[Int(parent)].count += 1
    }

    /// The last entry of dictionary `dictionary` with the key `key` (the one that counts), or
    /// `nil` when there is none or `dictionary` is not a dictionary.
    package mutating func lastEntry(of dictionary: Int32, key: Key) -> Int32? {
        let container = nodes[Int(dictionary)]
        guard container.kind == .dictionary, container.count > 0 else { return nil }
        let number: Int32
        switch key {
        case .none: return nil
        case .name(let name): number = keys.number(of: name)
        case .number(let known): number = known
        }
        if container.flags & Self.indexed != 0 { return entryIndexes[dictionary]![number] }
        var found: Int32? = nil
        if container.count <= Self.scannedEntries {
            for child in children(of: dictionary) where nodes[Int(child)].key == number { found = child }
            return found
        }
        // A large dictionary: indexed from now on, so that asking for each of its keys is not
        // quadratic.
        var index: [Int32: Int32] = [:]
        for child in children(of: dictionary) { index[nodes[Int(child)].key] = child }
        entryIndexes[dictionary] = index
        nodes[Int(dictionary)].flags |= Self.indexed
        return index[number]
    }

    private mutating func dropIndex(of node: Int32) {
        guard nodes[Int(node)].flags & Self.indexed != 0 else { return }
        nodes[Int(node)].flags &= ~Self.indexed
        entryIndexes[node] = nil
    }

    /// The children of container `node` in order.
    package func children(of node: Int32) -> FlatChildren {
        let container = nodes[Int(node)]
        return FlatChildren(
            nodes: nodes, first: container.count == 0 ? -1 : Int32(truncatingIfNeeded: container.payload),
            count: Int(container.count))
    }

    /// Reads the nodes from container `node`'s first child to its last, then one byte per cache
    /// line of the bytes of the strings and data among them, and returns their sum: the
    /// children of a container filled in one go lie together, and so do their bytes, and these
    /// independent reads bring the lines in together, where reading the children in order
    /// would take one cache miss after another. Containers whose children lie farther apart
    /// (which hold others) are left alone: the nodes read are at most 8 per child, so the
    /// reading adds at most a constant per node whatever the nesting.
    package func touchChildren(of node: Int32) -> UInt8 {
        let container = nodes[Int(node)]
        guard container.count > 1 else { return 0 }
        let first = Int(UInt32(truncatingIfNeeded: container.payload))
        let last = Int(UInt32(truncatingIfNeeded: container.payload >> 32))
        guard first < last, last - first < min(2048, 8 * Int(container.count)) else { return 0 }
        var sum: UInt8 = 0
        var low = Int.max
        var high = 0
        for index in first...last {
            let child = nodes[index]
            sum &+= child.kind.rawValue
            guard child.kind == .string || child.kind == .data else { continue }
            let range = range(of: child)
            low = min(low, range.lowerBound)
            high = max(high, range.upperBound)
        }
        guard low < high, high - low < 1 << 16 else { return sum }
        for offset in stride(from: low, to: high, by: 64) { sum &+= bytes[offset] }
        return sum
    }

    /// Appends the entries of dictionary `node` to `stack`, in order and each key once: a key
    /// added again keeps its first place and takes the last value. `seen` is scratch space the
    /// caller keeps between calls (per key number, the last dictionary that used it) and
    /// `dictionary` a number unique to this call.
    package func appendEntries(
        of node: Int32, to stack: inout [(key: Int32, value: Int32)], seen: inout [Int], dictionary: Int
    ) {
        if seen.count < keys.names.count {
            seen.append(contentsOf: repeatElement(0, count: keys.names.count - seen.count))
        }
        let start = stack.count
        var repeated = false
        for child in children(of: node) {
            let key = nodes[Int(child)].key
            repeated = repeated || seen[Int(key)] == dictionary
            seen[Int(key)] = dictionary
            stack.append((key, child))
        }
        guard repeated else { return }
        var place: [Int32: Int] = [:]
        var unique: [(key: Int32, value: Int32)] = []
        for entry in stack[start...] {
            if let index = place[entry.key] {
                unique[index].value = entry.value
            } else {
                place[entry.key] = unique.count
                unique.append(entry)
            }
        }
        stack.replaceSubrange(start..., with: unique)
    }

    /// What Foundation's encoder calls the scalar at `node` when it refuses one as the top value
    /// of a property list (`boolean`, `number`, `string`, `date`); `nil` for a container or data.
    package func fragmentName(at node: Int32) -> String? {
        switch nodes[Int(node)].kind {
        case .dictionary, .array, .data: nil
        case .bool: "boolean"
        case .signed, .unsigned, .real: "number"
        case .string: "string"
        case .date: "date"
        }
    }

    /// The value at `node` as a `Plist`.
    package func plist(at node: Int32) -> Plist {
        let value = nodes[Int(node)]
        switch value.kind {
        case .dictionary:
            var entries = PlistDictionary(minimumCapacity: Int(value.count))
            for child in children(of: node) {
                entries[keys.names[Int(nodes[Int(child)].key)]] = plist(at: child)
            }
            return .dictionary(entries)
        case .array:
            var elements: [Plist] = []
            elements.reserveCapacity(Int(value.count))
            for child in children(of: node) { elements.append(plist(at: child)) }
            return .array(elements)
        case .string: return .string(String(decoding: content(of: value), as: UTF8.self))
        case .signed: return .integer(PlistInteger(Int64(bitPattern: value.payload)))
        case .unsigned: return .integer(PlistInteger(value.payload))
        case .real: return .real(Double(bitPattern: value.payload))
        case .bool: return .bool(value.payload != 0)
        case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: value.payload)))
        case .data: return .data(Data(content(of: value)))
        }
    }

    /// The bytes of a string or data node.
    package func content(of node: Node) -> ArraySlice<UInt8> { bytes[range(of: node)] }

    /// Where the bytes of a string or data node are in `bytes`.
    package func range(of node: Node) -> Range<Int> {
        Int(node.payload)..<Int(node.payload) + Int(node.count)
    }
}

/// The children of a `FlatPlist` container, following their links.
package struct FlatChildren: Sequence, IteratorProtocol {
    let nodes: [FlatPlist.Node]
    var cursor: Int32
    var remaining: Int

    init(nodes: [FlatPlist.Node], first: Int32, count: Int) {
        self.nodes = nodes
        cursor = first
        remaining = count
    }

    package mutating func next() -> Int32? {
        guard remaining > 0 else { return nil }
        let node = cursor
        cursor = nodes[Int(node)].next
        remaining -= 1
        return node
    }
}

/// The keys of a `FlatPlist`'s dictionaries, each spelling once, numbered in the order first
/// added. Keys are told apart by their exact UTF-8 bytes, as `Plist` strings are (`String`'s
/// `==` would make "é" and "e\u{301}" one key).
///
/// Finding a key's number usually costs one comparison: values of one type add their keys in
/// the same order every time, so the key that followed the previous key the last time is tried
/// before hashing.
package struct FlatKeys {
    package private(set) var names: [String] = []
    /// Per key number: whether its name is ASCII.
    private var isASCII: [Bool] = []
    private var numbering = KeyNumbering()
    /// Per key number: the key added after it in a dictionary the last time, or -1.
    private var successors: [Int32] = []
    /// The first key of the last dictionary that got one.
    private var first: Int32 = -1

    /// The number of `name`, added to a dictionary after the key numbered `previous` (-1 for
    /// its first key).
    ///
    /// When the guess is wrong, the keys that followed it are tried, up to `skippedKeys`: a
    /// value that leaves out some optional keys skips them. A key found that way leaves the
    /// successors as they are, so they keep every key of the type in order.
    mutating func number(of name: String, after previous: Int32) -> Int32 {
        var guess = previous < 0 ? first : successors[Int(previous)]
        for _ in 0...Self.skippedKeys where guess >= 0 {
            if isNamed(guess, name) { return guess }
            guess = successors[Int(guess)]
        }
        let number = number(of: name)
        if previous < 0 { first = number } else { successors[Int(previous)] = number }
        return number
    }

    /// Whether key `number` is spelled exactly `name`. For an ASCII key, `==` (which is fast,
    /// and instant for the same literal) with the same UTF-8 length is enough: a string
    /// canonically equivalent to an ASCII one but not ASCII itself (U+212A KELVIN SIGN for "K")
    /// is longer in UTF-8.
    private func isNamed(_ number: Int32, _ name: String) -> Bool {
        let key = names[Int(number)]
        guard key.utf8.count == name.utf8.count else { return false }
        guard isASCII[Int(number)] else { return ExactKey(key) == ExactKey(name) }
        return key == name
    }

    /// The number of `name`, without a guess.
    mutating func number(of name: String) -> Int32 {
        let number = numbering.number(adding: name.utf8.span)
        if number == names.count {
            names.append(name)
            isASCII.append(name.utf8.span.isASCII)
            successors.append(-1)
        }
        return number
    }

    /// How many keys after a wrong guess `number(of:after:)` tries before hashing.
    private static let skippedKeys = 8
}
