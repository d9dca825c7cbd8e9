package import PlistCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An XML property list indexed by `XMLScanner` into a flat table of its values, which
/// PlistKit's Codable decoder reads in place (as it reads a binary file's objects), and from
/// which `plist()` builds the tree.
///
/// Node 0... are the values in document order, each dictionary key a node of its own. Text is
/// kept as a byte range of the document and unescaped only when it holds a reference or a
/// carriage return; integers, reals and dates were parsed (and checked) by the scanner.
package final class XMLTable: IndexedPlist {
    /// What a node is.
    package enum Kind: UInt8, BitwiseCopyable {
        case dictionary, array, key, string, integer, real, date, data, `true`, `false`
    }

    /// One value. Invariant (set by the scanner): for `string` and `data`, `start..<end` is the
    /// raw text in the document; for `key`, `start..<start + keyLength`, and `end` holds its
    /// first 8 bytes big-endian (zeros after a shorter key), which orders keys as their bytes
    /// do (XML text holds no NUL), or for a `longKey` its length; for `dictionary` and `array`,
    /// `start` is where the children are in `children` and the low 32 bits of `end` how many
    /// entries or elements there are
    /// (for a dictionary, the high 32 bits say where its keys' prefixes are in `keyPrefixes`);
    /// for `integer`, `end` is the bit pattern (`negative` in the flags), for `real` and `date`
    /// the bits of the `Double`.
    struct Node: BitwiseCopyable {
        var kind: Kind
        var flags: Flags
        var keyLength: UInt16 = 0
        var start: UInt32
        var end: UInt64

        /// How many entries or elements a container has.
        var count: Int { Int(end & 0xFFFF_FFFF) }

        /// Where the raw text of a `key`, `string` or `data` node is.
        var text: Range<Int> {
            guard kind == .key else { return Int(start)..<Int(end) }
            return Int(start)..<Int(start) + (flags.contains(.longKey) ? Int(end) : Int(keyLength))
        }

        /// The first 8 bytes of `text`, big-endian, zeros after a shorter text.
        static func prefix(_ text: Span<UInt8>) -> UInt64 {
            if text.count >= 8 { return text.word(at: 0).byteSwapped }
            let count = text.count
            var prefix: UInt64 = 0
            for index in 0..<count { prefix = prefix << 8 | UInt64(text[index]) }
            return prefix << (8 * (8 - count))
        }

        /// Bytes 8 to 14 of `text` big-endian (zeros after a shorter text), then its length up
        /// to 255: with `prefix`, a text of at most 15 bytes entire, in byte order.
        static func secondWord(_ text: Span<UInt8>) -> UInt64 {
            if text.count >= 16 { return text.word(at: 8).byteSwapped & ~0xFF | UInt64(min(text.count, 255)) }
            let end = min(text.count, 15)
            var word: UInt64 = 0
            for index in min(8, end)..<end { word = word << 8 | UInt64(text[index]) }
            word <<= 8 * (15 - max(end, 8))
            return word << 8 | UInt64(min(text.count, 255))
        }

        /// What the scanner found of a node, beside its kind.
        struct Flags: OptionSet, BitwiseCopyable {
            let rawValue: UInt8

            /// The text holds `&` or a carriage return: unescape it before use.
            static let escaped = Flags(rawValue: 1 << 0)
            /// The text holds bytes outside ASCII.
            static let nonASCII = Flags(rawValue: 1 << 1)
            /// A dictionary whose keys are unescaped ASCII in strictly ascending byte order.
            static let sortedKeys = Flags(rawValue: 1 << 2)
            /// An integer below zero.
            static let negative = Flags(rawValue: 1 << 3)
            /// A dictionary whose keys are unescaped ASCII, not in order: its rows of `keyPrefixes`
            /// are in ascending byte order of the keys, and `keyEntries` says whose they are.
            static let indexedKeys = Flags(rawValue: 1 << 4)
            /// A dictionary of a table for `plist()` whose keys are escaped or not ASCII: a key may
            /// be repeated (the same scalars, once unescaped), which takes its first place and its
            /// last value.
            static let uncheckedKeys = Flags(rawValue: 1 << 5)
            /// A key of more than 65,535 bytes: `end` holds its length, not its first 8 bytes, and
            /// its dictionary's keys are compared as strings.
            static let longKey = Flags(rawValue: 1 << 6)
            /// A dictionary of at most `XMLTableBuilder.unsortedKeyLimit` keys, unescaped ASCII, all
            /// different, not in order: its rows of `keyPrefixes` are in document order, and a key
            /// is found by reading them one after another. (Sorting the few keys of every record cost
            /// more than that.)
            static let unsortedKeys = Flags(rawValue: 1 << 7)
        }
    }

    /// The document's bytes (an array: `Data`'s `span` checks exclusive access at every read;
    /// docs/PERFORMANCE.md, "Codable XML").
    private let document: [UInt8]
    private let nodes: [Node]
    /// The children of every container: a dictionary's key and value nodes alternate.
    private let children: [Int32]
    /// Two words per key of every dictionary, in a row per dictionary, so that finding a key
    /// reads little memory and, for keys of at most 15 bytes, not the document: the key's
    /// `prefix` and `secondWord`. In document order, or for an `indexedKeys` dictionary in the
    /// keys' byte order.
    private let keyPrefixes: [UInt64]
    /// For every pair of words of an `indexedKeys` dictionary in `keyPrefixes`, the index of its
    /// key's entry in its dictionary (zero for other dictionaries, or missing after the last).
    private let keyEntries: [UInt32]
    /// Per container, in document order: its node (high 32 bits) and where its start tag ends
    /// (low 32 bits), for error messages.
    private let containerStarts: [UInt64]
    /// Its limits: containers are entered at most `maxDepth` deep.
    private let budget: ReadBudget
    /// What `prefetch` read, kept so that its reads are not optimized away.
    private var touched: UInt8 = 0

    init(
        document: [UInt8], nodes: [Node], children: [Int32], keyPrefixes: [UInt64], keyEntries: [UInt32],
        containerStarts: [UInt64], budget: ReadBudget
    ) {
        self.document = document
        self.nodes = nodes
        self.children = children
        self.keyPrefixes = keyPrefixes
        self.keyEntries = keyEntries
        self.containerStarts = containerStarts
        self.budget = budget
    }

    package var top: Int { 0 }

    /// `, at line L, column C` (`position(of:)`); empty for the top value, as for the other
    /// text formats (an error there concerns the whole document).
    package func location(of node: Int) -> String {
        let position = position(of: node)
        return ", at line \(position.line), column \(position.column)"
    }

    /// Where `node`'s start tag ends, as libxml2 reports it when it reads the start tag: the
    /// line, and the column of the tag's `>` (of its `/` in the empty form `<dict/>`), counted in
    /// characters. Computed from the document only when an error asks for it.
    package func position(of node: Int) -> TextPosition {
        let entry = nodes[node]
        var end: Int
        switch entry.kind {
        case .dictionary, .array:
            // The containers' entries are in node order: a binary search.
            var (low, high) = (0, containerStarts.count)
            while high - low > 1 {
                let middle = (low + high) / 2
                if Int(containerStarts[middle] >> 32) <= node { low = middle } else { high = middle }
            }
            end = Int(UInt32(truncatingIfNeeded: containerStarts[low]))
        default:
            end = Int(entry.start)
        }
        let storage = document
        let bytes = storage.span
        if end >= 2, bytes[end - 1] == UInt8(ascii: ">"), bytes[end - 2] == UInt8(ascii: "/") { end -= 1 }
        var line = 1
        var lineStart = 0
        for index in 0..<end where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        var column = 0
        for index in lineStart..<end where bytes[index] & 0xC0 != 0x80 { column += 1 }
        return TextPosition(line: line, column: column)
    }

    package func kind(of node: Int) -> IndexedKind {
        switch nodes[node].kind {
        case .dictionary: .dictionary
        case .array: .array
        default: .scalar
        }
    }

    package func scalar(_ node: Int) throws(PlistError) -> Plist? { scalarValue(node) }

    private func scalarValue(_ node: Int) -> Plist? {
        let entry = nodes[node]
        switch entry.kind {
        case .dictionary, .array: return nil
        case .key, .string: return .string(text(entry))
        case .integer: return .integer(integer(entry))
        case .real: return .real(Double(bitPattern: entry.end))
        case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: entry.end)))
        case .data: return .data(data(entry))
        case .true: return .bool(true)
        case .false: return .bool(false)
        }
    }

    package func integer(_ node: Int) -> PlistInteger? {
        let entry = nodes[node]
        return entry.kind == .integer ? integer(entry) : nil
    }

    package func real(_ node: Int) -> Double? {
        let entry = nodes[node]
        return entry.kind == .real ? Double(bitPattern: entry.end) : nil
    }

    package func string(_ node: Int) -> String? {
        let entry = nodes[node]
        return entry.kind == .string ? text(entry) : nil
    }

    package func bool(_ node: Int) -> Bool? {
        switch nodes[node].kind {
        case .true: true
        case .false: false
        default: nil
        }
    }

    package func date(_ node: Int) -> Double? {
        let entry = nodes[node]
        return entry.kind == .date ? Double(bitPattern: entry.end) : nil
    }

    package func isNull(_ node: Int) -> Bool {
        let entry = nodes[node]
        guard entry.kind == .string else { return false }
        guard !entry.flags.contains(.escaped) else { return text(entry) == "$null" }
        guard entry.text.count == 5 else { return false }
        let storage = document
        let bytes = storage.span
        let start = Int(entry.start)
        return bytes[start] == 0x24 && bytes[start + 1] == 0x6E
            && bytes[start + 2] == 0x75 && bytes[start + 3] == 0x6C && bytes[start + 4] == 0x6C
    }

    package func dictionary(_ node: Int, depth: Int) throws(PlistError) -> IndexedDictionary {
        try budget.enter(depth: depth, at: 0)
        let entry = nodes[node]
        let entries = IndexedEntries(node: node, count: entry.count, base: Int(entry.start))
        prefetch(entries, keyWords: Int(entry.end >> 32))
        return .entries(entries)
    }

    /// Reads one byte per cache line of what the decoder reads next from the dictionary
    /// `entries` (its text in the document, its nodes, its keys' prefixes from `keyWords` on):
    /// these independent reads bring the lines in together instead of one cache miss after
    /// another. Dictionaries spanning 64 KB or more of text (which hold others) are left alone.
    private func prefetch(_ entries: IndexedEntries, keyWords: Int) {
        guard entries.count > 1 else { return }
        let first = Int(nodes[Int(children[entries.base])].start)
        let last = Int(nodes[Int(children[entries.base + 2 * (entries.count - 1)])].start)
        guard last - first < 1 << 16 else { return }
        let storage = document
        let bytes = storage.span
        var sum: UInt8 = 0
        for offset in stride(from: first, to: last, by: 64) { sum &+= bytes[offset] }
        // The nodes of its keys and scalar values follow the dictionary's, four to a line.
        let lastNode = Int(children[entries.base + 2 * entries.count - 1])
        for index in stride(from: entries.node + 1, through: lastNode, by: 4) { sum &+= nodes[index].flags.rawValue }
        // Its keys' prefixes, eight words to a line.
        for index in stride(from: keyWords, to: keyWords + 2 * entries.count, by: 8) {
            sum &+= UInt8(truncatingIfNeeded: keyPrefixes[index])
        }
        touched = sum
    }

    package func array(_ node: Int, depth: Int) throws(PlistError) -> IndexedElements {
        try budget.enter(depth: depth, at: 0)
        let entry = nodes[node]
        return IndexedElements(count: entry.count, base: Int(entry.start))
    }

    package func element(_ index: Int, of elements: IndexedElements) -> Int {
        Int(children[elements.base + index])
    }

    package func key(_ index: Int, of entries: IndexedEntries) -> String {
        text(nodes[Int(children[entries.base + 2 * index])])
    }

    package func value(_ index: Int, of entries: IndexedEntries) -> Int {
        Int(children[entries.base + 2 * index + 1])
    }

    package func entry(forKey key: String, in entries: IndexedEntries, hint: Int) -> (index: Int, value: Int)? {
        guard let index = index(ofKey: key, in: entries, hint: hint) else { return nil }
        return (index, value(index, of: entries))
    }

    private func index(ofKey key: String, in entries: IndexedEntries, hint: Int) -> Int? {
        var text = key.utf8Span
        let isASCII = text.isKnownASCII || text.checkForASCII()
        let wanted = text.span
        let prefix = Node.prefix(wanted)
        let dictionary = nodes[entries.node]
        guard isASCII, !dictionary.flags.isDisjoint(with: [.sortedKeys, .indexedKeys, .unsortedKeys]) else {
            // Escaped or non-ASCII keys (or a wanted key that is not ASCII): compared one by one.
            if hint < entries.count, matches(keyAt: entries.base + 2 * hint, wanted, prefix, key, isASCII) {
                return hint
            }
            for index in 0..<entries.count where index != hint {
                if matches(keyAt: entries.base + 2 * index, wanted, prefix, key, isASCII) { return index }
            }
            return nil
        }
        // The dictionary's rows of `keyPrefixes` are in the keys' byte order (the document's
        // order, or for `indexedKeys` sorted by the scanner, with `keyEntries` naming each
        // row's entry): the hint, then a binary search on the first 15 bytes, then the keys
        // sharing those bytes. (The compiler makes each step a branch; a branch-free step was
        // slower: docs/PERFORMANCE.md, "Codable XML".)
        let words = Int(dictionary.end >> 32)
        if dictionary.flags.contains(.unsortedKeys) {
            if hint < entries.count, compare(nodes[Int(children[entries.base + 2 * hint])], wanted, prefix) == 0 {
                return hint
            }
            let second = Node.secondWord(wanted)
            for row in 0..<entries.count
            where keyPrefixes[words + 2 * row] == prefix && keyPrefixes[words + 2 * row + 1] == second {
                if wanted.count <= 15 || compare(nodes[Int(children[entries.base + 2 * row])], wanted, prefix) == 0 {
                    return row
                }
            }
            return nil
        }
        let second = Node.secondWord(wanted)
        let count = UInt64(min(wanted.count, 255))
        let isSorted = dictionary.flags.contains(.sortedKeys)
        if hint < entries.count {
            if isSorted {
                if keyPrefixes[words + 2 * hint] == prefix, keyPrefixes[words + 2 * hint + 1] == second,
                    wanted.count <= 15
                        || compare(nodes[Int(children[entries.base + 2 * hint])], wanted, prefix) == 0
                {
                    return hint
                }
            } else if compare(nodes[Int(children[entries.base + 2 * hint])], wanted, prefix) == 0 {
                return hint
            }
        }
        /// Bytes 0 to 14 of the key of row `row`, which order keys as their bytes do (up to ties).
        func firstBytes(_ row: Int) -> UInt128 {
            UInt128(keyPrefixes[words + 2 * row]) << 64 | UInt128(keyPrefixes[words + 2 * row + 1] >> 8)
        }
        let target = UInt128(prefix) << 64 | UInt128(second >> 8)
        var row = 0
        var remaining = entries.count
        while remaining > 1 {
            let half = remaining / 2
            row = firstBytes(row + half) < target ? row + half : row
            remaining -= half
        }
        if remaining == 1, firstBytes(row) < target { row += 1 }
        while row < entries.count, firstBytes(row) == target {
            let index = isSorted ? row : Int(keyEntries[words / 2 + row])
            if wanted.count <= 15 {
                if keyPrefixes[words + 2 * row + 1] & 0xFF == count { return index }
            } else if compare(nodes[Int(children[entries.base + 2 * index])], wanted, prefix) == 0 {
                return index
            }
            row += 1
        }
        return nil
    }

    /// Whether the key node at `children[child]` is `key`: compared as bytes when both are
    /// ASCII and the key is unescaped, else as strings (which compare canonically).
    private func matches(
        keyAt child: Int, _ wanted: Span<UInt8>, _ prefix: UInt64, _ key: String,
        _ isASCII: Bool
    ) -> Bool {
        let entry = nodes[Int(children[child])]
        guard isASCII, entry.flags.isDisjoint(with: [.escaped, .nonASCII, .longKey]) else {
            return text(entry) == key
        }
        return compare(entry, wanted, prefix) == 0
    }

    /// The byte order of an unescaped key and `wanted` (whose prefix is `prefix`): negative,
    /// zero or positive. The prefixes decide unless they are equal.
    private func compare(_ entry: Node, _ wanted: Span<UInt8>, _ prefix: UInt64) -> Int {
        if entry.end != prefix { return entry.end < prefix ? -1 : 1 }
        let count = Int(entry.keyLength)
        if count <= 8 || wanted.count <= 8 { return count - wanted.count }
        let storage = document
        let bytes = storage.span
        let start = Int(entry.start)
        return bytes.extracting(start..<start + count).byteOrder(wanted, from: 8)
    }

    private func integer(_ entry: Node) -> PlistInteger {
        entry.flags.contains(.negative) ? PlistInteger(Int64(bitPattern: entry.end)) : PlistInteger(entry.end)
    }

    /// The text of a key or string node.
    private func text(_ entry: Node) -> String {
        let storage = document
        let raw = storage.span.extracting(entry.text)
        guard !entry.flags.contains(.escaped) else { return String(decoding: XMLText.unescaped(raw), as: UTF8.self) }
        // SAFETY: the scanner checked every byte of the text: ASCII, or part of a character
        // `XMLText.endOfUTF8Character` found to be UTF-8 (it declines the document otherwise),
        // and it flags the text `nonASCII` when it meets a byte above 0x7F. Checking again
        // here cost 2 % of Codable XML decoding.
        assert(Self.isUTF8(raw, ascii: !entry.flags.contains(.nonASCII)))
        let text = unsafe UTF8Span(unchecked: raw, isKnownASCII: !entry.flags.contains(.nonASCII))
        return String(copying: text)
    }

    /// Whether `raw` is UTF-8, and ASCII exactly when `ascii`: what the scanner promises of text.
    private static func isUTF8(_ raw: Span<UInt8>, ascii: Bool) -> Bool {
        guard let text = try? UTF8Span(validating: raw) else { return false }
        return text.isKnownASCII == ascii
    }

    private func data(_ entry: Node) -> Data {
        let storage = document
        let raw = storage.span.extracting(entry.text)
        guard !entry.flags.contains(.escaped) else { return XMLScalars.base64(XMLText.unescaped(raw).span) }
        return XMLScalars.base64(raw)
    }

    /// The whole document as a `Plist`, built without recursion.
    package func plist() -> Plist {
        // Children come after their container: building from the last node back, every
        // container finds its children built.
        var built = [Plist?](repeating: nil, count: nodes.count)
        var keySets = SharedKeySets()
        for node in nodes.indices.reversed() {
            let entry = nodes[node]
            switch entry.kind {
            case .array:
                var elements: [Plist] = []
                elements.reserveCapacity(entry.count)
                for index in 0..<entry.count {
                    elements.append(take(&built, Int(children[Int(entry.start) + index])))
                }
                built[node] = .array(elements)
            case .dictionary:
                var keys: [String] = []
                var values: [Plist] = []
                keys.reserveCapacity(entry.count)
                values.reserveCapacity(entry.count)
                for index in 0..<entry.count {
                    keys.append(text(nodes[Int(children[Int(entry.start) + 2 * index])]))
                    values.append(take(&built, Int(children[Int(entry.start) + 2 * index + 1])))
                }
                if keys.count == 1, keys[0] == "CF$UID", let uid = values[0].uint64 {
                    // A keyed-archiver UID, as the libxml2 reader (`XMLTreeBuilder`) reads it.
                    built[node] = .uid(uid)
                } else {
                    // With `uncheckedKeys` a repeated key (the same scalars) keeps its first place
                    // and takes its last value, as in the libxml2 reader (`XMLTreeBuilder`);
                    // otherwise the scanner declined documents with a repeated key here.
                    let areUnique = !entry.flags.contains(.uncheckedKeys)
                    built[node] = .dictionary(keySets.dictionary(keys: keys, values: values, areUnique: areUnique))
                }
            case .key:
                break
            default:
                built[node] = scalarValue(node)
            }
        }
        return take(&built, 0)
    }

    private func take(_ built: inout [Plist?], _ node: Int) -> Plist {
        guard let value = built[node] else { preconditionFailure("a child is built before its container") }
        built[node] = nil
        return value
    }
}
