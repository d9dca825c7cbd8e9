package import PlistCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Indexes XML property lists into an `XMLTable` without libxml2, for the documents real
/// writers produce; it declines everything else, and the libxml2 reader reads those (and gives
/// every error message).
///
/// It accepts exactly: UTF-8 without a byte-order mark (white space before the first `<` is
/// skipped, as the reader skips it); an optional declaration `<?xml version="1.0"` with
/// optional `encoding="UTF-8"` (any case) and `standalone`; comments; a `<!DOCTYPE plist>`
/// with an optional `PUBLIC` or `SYSTEM` identifier and no internal subset; a `<plist>` element
/// with at most a `version` attribute (or a value element as the root); the elements `dict`,
/// `array`, `key`, `string`, `integer`, `real`, `date`, `data`, `true`, `false` without
/// attributes, placed as the property-list grammar requires, in start-and-end or empty form;
/// white space and comments between elements; text with the five predefined entities,
/// numeric character references and any character XML allows. Leaf values must read as the
/// libxml2 reader reads them (`XMLScalars`), dictionaries must not repeat a key (but for
/// `plist(of:options:)`, a key escaped or beyond ASCII, which its tree keeps in its first place
/// with its last value, as the libxml2 reader does), and the document must stay within
/// `maxDepth`, `maxObjects` and `maxContentBytes`.
///
/// It declines (returns `nil`) anything else: CDATA sections, processing instructions, an
/// internal DTD subset, other encodings, UTF-16 and byte-order marks, unknown entities,
/// unexpected attributes or elements, comments inside leaf elements, malformed markup,
/// invalid UTF-8 or characters XML forbids (raw: references to them are read, as CoreFoundation
/// reads them), limits exceeded, and for `table(of:options:)` a `CF$UID` dictionary (a UID,
/// which `plist(of:options:)` reads).
/// Nothing it accepts is refused by the libxml2 reader, and it gives the values that reader
/// gives, with one exception: references to the characters XML 1.0 forbids (`&#8;`), which
/// libxml2 refuses and CoreFoundation reads; for those the scanner is the reader (the tests
/// compare it with libxml2 reading stand-in characters in their place). It keeps its own stack
/// of open elements, so deep nesting cannot overflow the call stack.
package enum XMLScanner {
    /// The value of the document in `bytes` (which it copies), or `nil` when the document is
    /// not one this scanner reads.
    package static func plist(of bytes: Span<UInt8>, options: PlistReadOptions) -> Plist? {
        table(of: [UInt8](copying: bytes), options: options, isForTree: true)?.plist()
    }

    /// The table of `document` (kept, not copied), or `nil` when the document is not one this
    /// scanner reads.
    package static func table(of document: [UInt8], options: PlistReadOptions) -> XMLTable? {
        table(of: document, options: options, isForTree: false)
    }

    /// The table; when `isForTree`, for `XMLTable.plist()` alone (see `XMLScan.isForTree`).
    private static func table(of document: [UInt8], options: PlistReadOptions, isForTree: Bool) -> XMLTable? {
        let bytes = document.span
        guard bytes.count <= Int(Int32.max) else { return nil }
        var scan = XMLScan(options: options)
        scan.isForTree = isForTree
        // Room for a node per 16 bytes: more than documents hold (pages never touched cost nothing).
        scan.nodes = [XMLTable.Node](largeCapacity: bytes.count / 16)
        scan.children = [Int32](largeCapacity: bytes.count / 16)
        scan.keyPrefixes = [UInt64](largeCapacity: bytes.count / 16)
        do throws(XMLScan.Decline) {
            try scan.document(bytes)
        } catch {
            return nil
        }
        return XMLTable(
            document: document, nodes: scan.nodes, children: scan.children, keyPrefixes: scan.keyPrefixes,
            keyEntries: scan.keyEntries, containerStarts: scan.containerStarts, budget: ReadBudget(options))
    }
}

/// The scanner's state while it reads one document.
private struct XMLScan {
    /// The document is not one the scanner reads.
    struct Decline: Error {}

    enum Element {
        case plist
        case value(XMLTable.Kind)
    }

    /// An open `dict` or `array`.
    struct Frame {
        var node: Int
        var isDictionary: Bool
        /// Where this container's children start in `pending`.
        var firstPending: Int
        /// In a dictionary: a key was read, its value comes next.
        var expectsValue = false
        /// The previous key, to see whether the keys are in ascending order.
        var previousKey: XMLTable.Node? = nil
        var isSorted = true
        /// A key is escaped or not ASCII: bytes do not show whether two keys are equal.
        var needsKeyCheck = false
    }

    var budget: ReadBudget
    var nodes: [XMLTable.Node] = []
    var children: [Int32] = []
    var keyPrefixes: [UInt64] = []
    var keyEntries: [UInt32] = []
    /// Per container, in document order: its node (high 32 bits) and where its start tag ends.
    var containerStarts: [UInt64] = []
    /// The children of the open containers, innermost last.
    var pending: [Int32] = []
    /// The innermost open container (kept apart: it changes at every element), and the others.
    var current: Frame?
    var outer: [Frame] = []
    var position = 0
    /// The keys of the dictionary being sorted, and a copy of its rows of `keyPrefixes` (both
    /// kept for their room).
    var keyOrder: [UInt128] = []
    var keyRows: [UInt64] = []
    /// `checkUnsortedKeys`' table of rows (kept for its room).
    var keyTable: KeyRowTable?
    /// The table is for `XMLTable.plist()`, which makes UIDs of `CF$UID` dictionaries and
    /// reads repeated keys as the libxml2 reader does: such dictionaries are kept, not declined.
    /// (The Codable decoder reads the table in place, and finds a key by its first entry.)
    var isForTree = false

    /// How `<date>` text is read.
    let rules: FoundationRules

    init(options: PlistReadOptions) {
        budget = ReadBudget(options)
        rules = options.rules
    }

    // MARK: Document

    mutating func document(_ bytes: Span<UInt8>) throws(Decline) {
        skipWhitespace(bytes)
        if starts(bytes, "<?xml") { try declaration(bytes) }
        var sawDoctype = false
        while true {
            skipWhitespace(bytes)
            if starts(bytes, "<!--") {
                try comment(bytes)
            } else if !sawDoctype, starts(bytes, "<!DOCTYPE") {
                try doctype(bytes)
                sawDoctype = true
            } else {
                break
            }
        }
        try expect(bytes, "<")
        switch try elementName(bytes) {
        case .plist:
            try plistAttributes(bytes)
            try misc(bytes)
            try expect(bytes, "<")
            guard case .value(let kind) = try elementName(bytes) else { throw Decline() }
            try values(bytes, kind)
            try misc(bytes)
            try expect(bytes, "</")
            guard case .plist = try elementName(bytes) else { throw Decline() }
            skipWhitespace(bytes)
            try expect(bytes, ">")
        case .value(let kind):
            try values(bytes, kind)
        }
        try misc(bytes)
        guard position == bytes.count, !nodes.isEmpty else { throw Decline() }
    }

    /// `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`, the last two optional.
    mutating func declaration(_ bytes: Span<UInt8>) throws(Decline) {
        position += 5
        var attributes = 0
        while true {
            let hadWhitespace = skipWhitespace(bytes)
            if starts(bytes, "?>") { break }
            guard hadWhitespace else { throw Decline() }
            let value: String
            switch attributes {
            case 0:
                try expect(bytes, "version")
                value = try attributeValue(bytes)
                guard value == "1.0" else { throw Decline() }
                attributes = 1
            case 1 where starts(bytes, "encoding"):
                position += 8
                value = try attributeValue(bytes)
                guard value.lowercased() == "utf-8" else { throw Decline() }
                attributes = 2
            case 1, 2:
                try expect(bytes, "standalone")
                value = try attributeValue(bytes)
                guard value == "yes" || value == "no" else { throw Decline() }
                attributes = 3
            default:
                throw Decline()
            }
        }
        guard attributes > 0 else { throw Decline() }
        position += 2
    }

    /// `= "value"` (or single quotes) after an attribute name: letters, digits, `.`, `-`, `_`.
    mutating func attributeValue(_ bytes: Span<UInt8>) throws(Decline) -> String {
        skipWhitespace(bytes)
        try expect(bytes, "=")
        skipWhitespace(bytes)
        guard position < bytes.count, bytes[position] == 0x22 || bytes[position] == 0x27 else { throw Decline() }
        let quote = bytes[position]
        position += 1
        var value = ""
        while position < bytes.count, bytes[position] != quote {
            let byte = bytes[position]
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2E, 0x2D, 0x5F: value.append(Character(Unicode.Scalar(byte)))
            default: throw Decline()
            }
            position += 1
        }
        try expect(bytes, quote == 0x22 ? "\"" : "'")
        return value
    }

    /// `<!DOCTYPE plist>`, with an optional `PUBLIC "id" "uri"` or `SYSTEM "uri"`.
    mutating func doctype(_ bytes: Span<UInt8>) throws(Decline) {
        position += 9
        guard skipWhitespace(bytes) else { throw Decline() }
        try expect(bytes, "plist")
        var hadWhitespace = skipWhitespace(bytes)
        if hadWhitespace, starts(bytes, "PUBLIC") {
            position += 6
            guard skipWhitespace(bytes) else { throw Decline() }
            try literal(bytes, allowing: Self.isPublicIdentifierCharacter)
            guard skipWhitespace(bytes) else { throw Decline() }
            try literal(bytes) { (0x20...0x7E).contains($0) }
            hadWhitespace = skipWhitespace(bytes)
        } else if hadWhitespace, starts(bytes, "SYSTEM") {
            position += 6
            guard skipWhitespace(bytes) else { throw Decline() }
            try literal(bytes) { (0x20...0x7E).contains($0) }
            skipWhitespace(bytes)
        }
        try expect(bytes, ">")
    }

    mutating func literal(_ bytes: Span<UInt8>, allowing allowed: (UInt8) -> Bool) throws(Decline) {
        guard position < bytes.count, bytes[position] == 0x22 || bytes[position] == 0x27 else { throw Decline() }
        let quote = bytes[position]
        position += 1
        while position < bytes.count, bytes[position] != quote {
            guard allowed(bytes[position]) else { throw Decline() }
            position += 1
        }
        guard position < bytes.count else { throw Decline() }
        position += 1
    }

    static func isPublicIdentifierCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x0D, 0x0A, 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        default: Array("-'()+,./:=?;!*#@$_%".utf8).contains(byte)
        }
    }

    /// The attributes of `<plist`: at most `version`, then `>`.
    mutating func plistAttributes(_ bytes: Span<UInt8>) throws(Decline) {
        var sawVersion = false
        while true {
            let hadWhitespace = skipWhitespace(bytes)
            if starts(bytes, ">") { break }
            guard hadWhitespace, !sawVersion, starts(bytes, "version") else { throw Decline() }
            position += 7
            _ = try attributeValue(bytes)
            sawVersion = true
        }
        position += 1
    }

    /// White space and comments.
    mutating func misc(_ bytes: Span<UInt8>) throws(Decline) {
        while true {
            skipWhitespace(bytes)
            guard position + 1 < bytes.count, bytes[position] == 0x3C, bytes[position + 1] == 0x21,
                starts(bytes, "<!--")
            else { return }
            try comment(bytes)
        }
    }

    /// `<!-- ... -->`, without `--` inside.
    mutating func comment(_ bytes: Span<UInt8>) throws(Decline) {
        var index = position + 4
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x2D, index + 1 < bytes.count, bytes[index + 1] == 0x2D {
                guard index + 2 < bytes.count, bytes[index + 2] == 0x3E else { throw Decline() }
                position = index + 3
                return
            }
            index = try nextCharacter(bytes, at: index)
        }
        throw Decline()
    }

    // MARK: Values

    /// The value whose start tag's name was just read, and everything inside it.
    mutating func values(_ bytes: Span<UInt8>, _ first: XMLTable.Kind) throws(Decline) {
        var kind = first
        while true {
            try begin(bytes, kind)
            // The next start tag inside the open containers, closing those that end first.
            while true {
                guard current != nil else { return }
                try misc(bytes)
                guard position + 1 < bytes.count, bytes[position] == 0x3C else { throw Decline() }
                if bytes[position + 1] == 0x2F {
                    try close(bytes)
                    continue
                }
                position += 1
                guard case .value(let next) = try elementName(bytes) else { throw Decline() }
                kind = next
                break
            }
        }
    }

    /// An element of `kind` whose name was just read: a leaf is read to its end tag, a
    /// container opened (or, when empty, finished).
    mutating func begin(_ bytes: Span<UInt8>, _ kind: XMLTable.Kind) throws(Decline) {
        try place(kind)
        let node = nodes.count
        if current != nil { pending.append(Int32(node)) }
        let isEmpty = try startTagEnd(bytes)
        switch kind {
        case .dictionary, .array:
            try count(values: 1)
            do throws(PlistError) {
                try budget.enter(depth: outer.count + (current == nil ? 0 : 1), at: position)
            } catch {
                throw Decline()
            }
            nodes.append(XMLTable.Node(kind: kind, flags: [], start: 0, end: 0))
            containerStarts.append(UInt64(node) << 32 | UInt64(position))
            if let current { outer.append(current) }
            current = Frame(node: node, isDictionary: kind == .dictionary, firstPending: pending.count)
            if isEmpty { try finish(bytes) }
        default:
            let start = position
            var flags: XMLTable.Node.Flags = []
            if !isEmpty {
                flags = try text(bytes)
                let end = position
                try endTag(bytes, kind)
                try leaf(bytes, kind, start..<end, flags)
            } else {
                try leaf(bytes, kind, start..<start, flags)
            }
        }
    }

    /// Checks that a `kind` element may come here, and notes it in its dictionary.
    mutating func place(_ kind: XMLTable.Kind) throws(Decline) {
        guard let frame = current else {
            guard kind != .key, nodes.isEmpty else { throw Decline() }
            return
        }
        if frame.isDictionary {
            guard (kind == .key) != frame.expectsValue else { throw Decline() }
            current?.expectsValue.toggle()
        } else {
            guard kind != .key else { throw Decline() }
        }
    }

    /// A leaf with its raw text at `range`.
    mutating func leaf(_ bytes: Span<UInt8>, _ kind: XMLTable.Kind, _ range: Range<Int>, _ flags: XMLTable.Node.Flags)
        throws(Decline)
    {
        var node = XMLTable.Node(
            kind: kind, flags: flags, start: UInt32(range.lowerBound), end: UInt64(range.upperBound))
        let raw = bytes.extracting(range)
        switch kind {
        case .key:
            try count(content: range.count)
            if range.count <= Int(UInt16.max) {
                node.keyLength = UInt16(range.count)
                node.end = XMLTable.Node.prefix(raw)
            } else {
                // The length in `end` (no prefix): the dictionary's keys are compared as strings.
                node.flags.insert(.longKey)
                node.end = UInt64(range.count)
            }
            noteKey(bytes, node, node.flags)
        case .string, .data:
            try count(values: 1)
            try count(content: range.count)
        case .integer, .real, .date:
            try count(values: 1)
            do throws(Rejection) {
                if flags.contains(.escaped) {
                    try parse(&node, XMLText.unescaped(raw).span)
                } else {
                    try parse(&node, raw)
                }
            } catch {
                throw Decline()
            }
        case .true, .false:
            try count(values: 1)
            guard !flags.contains(.escaped) else { throw Decline() }
            for index in 0..<raw.count where !isXMLWhitespace(raw[index]) { throw Decline() }
        case .dictionary, .array:
            preconditionFailure("containers are not leaves")
        }
        nodes.append(node)
    }

    func parse(_ node: inout XMLTable.Node, _ text: Span<UInt8>) throws(Rejection) {
        switch node.kind {
        case .integer:
            let integer = try XMLScalars.integer(text)
            node.end = integer.bitPattern
            if integer.isNegativeValue { node.flags.insert(.negative) }
        case .real:
            node.end = try XMLScalars.real(text).bitPattern
        default:
            node.end = try XMLScalars.date(text, rules: rules).timeIntervalSinceReferenceDate.bitPattern
        }
    }

    /// Notes a dictionary key for the check of the dictionary's keys when it ends.
    mutating func noteKey(_ bytes: Span<UInt8>, _ key: XMLTable.Node, _ flags: XMLTable.Node.Flags) {
        guard var frame = current else { return }
        if !flags.isEmpty {
            frame.needsKeyCheck = true
        } else if frame.isSorted, let previous = frame.previousKey {
            frame.isSorted = Self.precedes(bytes, previous, key)
        }
        frame.previousKey = key
        current = frame
    }

    /// Whether key `first` comes before key `second` in byte order.
    static func precedes(_ bytes: Span<UInt8>, _ first: XMLTable.Node, _ second: XMLTable.Node) -> Bool {
        if first.end != second.end { return first.end < second.end }
        // `end` holds a key's first 8 bytes (padded), equal here.
        return order(bytes, first.text, second.text, from: 8) < 0
    }

    /// `</name>` of the innermost open container.
    mutating func close(_ bytes: Span<UInt8>) throws(Decline) {
        position += 2
        guard case .value(let kind) = try elementName(bytes), let frame = current,
            kind == (frame.isDictionary ? .dictionary : .array)
        else { throw Decline() }
        skipWhitespace(bytes)
        try expect(bytes, 0x3E)
        try finish(bytes)
    }

    /// Ends the innermost open container: its children move from `pending` to `children`.
    mutating func finish(_ bytes: Span<UInt8>) throws(Decline) {
        guard let frame = current else { throw Decline() }
        current = outer.popLast()
        guard !frame.expectsValue else { throw Decline() }
        let count = pending.count - frame.firstPending
        let firstKey = children.count
        nodes[frame.node].start = UInt32(firstKey)
        children.append(contentsOf: pending[frame.firstPending...])
        pending.removeSubrange(frame.firstPending...)
        guard frame.isDictionary else {
            nodes[frame.node].end = UInt64(count)
            return
        }
        let words = keyPrefixes.count
        nodes[frame.node].end = UInt64(words) << 32 | UInt64(count / 2)
        for index in 0..<count / 2 {
            let key = nodes[Int(children[firstKey + 2 * index])]
            keyPrefixes.append(key.end)
            keyPrefixes.append(XMLTable.Node.secondWord(bytes.extracting(key.text)))
        }
        if frame.isSorted, !frame.needsKeyCheck {
            nodes[frame.node].flags = .sortedKeys
        } else if !frame.needsKeyCheck, count / 2 <= Self.unsortedKeyLimit {
            try checkUnsortedKeys(bytes, words: words, count: count / 2, firstKey: firstKey)
            nodes[frame.node].flags = .unsortedKeys
        } else if !frame.needsKeyCheck {
            try sortKeyRows(bytes, words: words, count: count / 2, firstKey: firstKey)
            nodes[frame.node].flags = .indexedKeys
        } else if isForTree {
            // Escaped keys are compared once unescaped: `XMLTable.plist()` checks them by their
            // exact bytes as it builds the dictionary.
            nodes[frame.node].flags = .uncheckedKeys
        } else {
            // The Codable decoder matches keys as Foundation's does, as `String`s (canonically
            // equivalent spellings are one key): a dictionary with two such keys is left to the
            // libxml2 reader, whose tree the decoder reads with that rule.
            var seen = Set<String>()
            for index in 0..<count / 2 where !seen.insert(keyText(bytes, Int(children[firstKey + 2 * index]))).inserted
            {
                throw Decline()
            }
        }
        // A lone `CF$UID` key makes a UID: left to the libxml2 reader unless the table is for a
        // `Plist`. (Compared as bytes, not as a `String` made for every dictionary of one entry,
        // which iTunes' playlist items are: docs/PERFORMANCE.md, "Codable XML".)
        if count == 2, !isForTree, Self.isUIDKey(bytes, nodes[Int(children[firstKey])]) { throw Decline() }
    }

    /// The most keys of a dictionary not in order that is searched key by key (`unsortedKeys`).
    static let unsortedKeyLimit = 64

    /// Declines when two of the `count` plain ASCII keys whose rows are at `words` in
    /// `keyPrefixes` are the same key (`KeyRowTable`); keys of the same row are compared in the
    /// document.
    mutating func checkUnsortedKeys(_ bytes: Span<UInt8>, words: Int, count: Int, firstKey: Int) throws(Decline) {
        var keyTable = self.keyTable.take() ?? KeyRowTable()
        defer { self.keyTable = keyTable }
        func text(_ row: Int) -> Range<Int> { nodes[Int(children[firstKey + 2 * row])].text }
        let distinct = keyTable.areDistinct(keyPrefixes, first: words, count: count) {
            Self.order(bytes, text($0), text($1)) == 0
        }
        guard distinct else { throw Decline() }
    }

    /// Puts the `count` rows of a dictionary's plain ASCII keys at `words` in `keyPrefixes`
    /// (with their entries in `keyEntries`) in the keys' byte order, for `XMLTable`'s binary
    /// search; declines a repeated key, which the sort puts next to its twin. (Keys of plain
    /// ASCII are equal as strings exactly when their bytes are; as strings, each would be made
    /// and hashed.) What is sorted is integers: a key's first 12 bytes and its entry's index;
    /// only keys sharing their first 12 bytes are compared in the document.
    mutating func sortKeyRows(_ bytes: Span<UInt8>, words: Int, count: Int, firstKey: Int) throws(Decline) {
        var sorted: [UInt128] = []
        swap(&sorted, &keyOrder)
        defer { swap(&sorted, &keyOrder) }
        sorted.removeAll(keepingCapacity: true)
        for index in 0..<count {
            let first = UInt128(keyPrefixes[words + 2 * index]) << 64
            sorted.append(first | UInt128(keyPrefixes[words + 2 * index + 1] >> 32) << 32 | UInt128(index))
        }
        func text(_ index: Int) -> Range<Int> { nodes[Int(children[firstKey + 2 * index])].text }
        guard sorted.sortByPrefix(thenBy: { Self.order(bytes, text($0), text($1)) }) else { throw Decline() }
        keyRows.removeAll(keepingCapacity: true)
        keyRows.append(contentsOf: keyPrefixes[words..<words + 2 * count])
        // `keyEntries` is only read for dictionaries sorted here: rows before are left zero.
        if keyEntries.count < words / 2 + count {
            keyEntries.append(contentsOf: repeatElement(0, count: words / 2 + count - keyEntries.count))
        }
        for (row, key) in sorted.enumerated() {
            let entry = [UInt128].index(key)
            keyPrefixes[words + 2 * row] = keyRows[2 * entry]
            keyPrefixes[words + 2 * row + 1] = keyRows[2 * entry + 1]
            keyEntries[words / 2 + row] = UInt32(entry)
        }
    }

    /// The byte order of the texts at `first` and `second`, whose first `start` bytes are known
    /// to agree (as far as both go): negative, zero or positive.
    static func order(_ bytes: Span<UInt8>, _ first: Range<Int>, _ second: Range<Int>, from start: Int = 0) -> Int {
        bytes.extracting(first).byteOrder(bytes.extracting(second), from: start)
    }

    /// Whether `key` is `CF$UID` (escaped or not).
    static func isUIDKey(_ bytes: Span<UInt8>, _ key: XMLTable.Node) -> Bool {
        guard !key.flags.contains(.escaped) else {
            return XMLText.unescaped(bytes.extracting(key.text)) == Array("CF$UID".utf8)
        }
        let text = key.text
        guard text.count == 6 else { return false }
        let uid: InlineArray<6, UInt8> = [0x43, 0x46, 0x24, 0x55, 0x49, 0x44]
        for index in 0..<6 where bytes[text.lowerBound + index] != uid[index] { return false }
        return true
    }

    func keyText(_ bytes: Span<UInt8>, _ node: Int) -> String {
        let entry = nodes[node]
        let raw = bytes.extracting(entry.text)
        guard entry.flags.contains(.escaped) else { return XMLScalars.string(raw) }
        return String(decoding: XMLText.unescaped(raw), as: UTF8.self)
    }

    // MARK: Markup

    /// The name of the element whose `<` was just read.
    mutating func elementName(_ bytes: Span<UInt8>) throws(Decline) -> Element {
        // The name's bytes, big-endian in one integer: every name here is 3 to 7 lowercase letters.
        var packed: UInt64 = 0
        let start = position
        while position < bytes.count, bytes[position] &- 0x61 < 26, position - start < 8 {
            packed = packed << 8 | UInt64(bytes[position])
            position += 1
        }
        guard position - start <= 7 else { throw Decline() }
        switch packed {
        case 0x6B_6579: return .value(.key)
        case 0x6469_6374: return .value(.dictionary)
        case 0x7265_616C: return .value(.real)
        case 0x6461_7465: return .value(.date)
        case 0x6461_7461: return .value(.data)
        case 0x7472_7565: return .value(.true)
        case 0x61_7272_6179: return .value(.array)
        case 0x66_616C_7365: return .value(.false)
        case 0x70_6C69_7374: return .plist
        case 0x7374_7269_6E67: return .value(.string)
        case 0x69_6E74_6567_6572: return .value(.integer)
        default: throw Decline()
        }
    }

    /// The end of a start tag without attributes: `>` (false) or `/>` (true, an empty element).
    mutating func startTagEnd(_ bytes: Span<UInt8>) throws(Decline) -> Bool {
        skipWhitespace(bytes)
        guard position < bytes.count else { throw Decline() }
        if bytes[position] == 0x3E {
            position += 1
            return false
        }
        try expect(bytes, 0x2F)
        try expect(bytes, 0x3E)
        return true
    }

    /// `</name>` of a leaf of `kind`, at `position`.
    mutating func endTag(_ bytes: Span<UInt8>, _ kind: XMLTable.Kind) throws(Decline) {
        // The usual `</name>`, compared as two words.
        if position + 16 <= bytes.count, let tag = kind.endTag,
            bytes.word(at: position) & tag.masks.0 == tag.words.0,
            bytes.word(at: position + 8) & tag.masks.1 == tag.words.1
        {
            position += tag.length
            return
        }
        try expect(bytes, 0x3C)
        try expect(bytes, 0x2F)
        guard case .value(let name) = try elementName(bytes), name == kind else { throw Decline() }
        skipWhitespace(bytes)
        try expect(bytes, 0x3E)
    }

    /// The text of a leaf up to the next `<`: checks the characters and references, and says
    /// whether the text must be unescaped (references, carriage returns) and holds non-ASCII.
    mutating func text(_ bytes: Span<UInt8>) throws(Decline) -> XMLTable.Node.Flags {
        var flags: XMLTable.Node.Flags = []
        var index = position
        while index < bytes.count {
            // Eight bytes at a time up to the first that needs a look.
            if index + 8 <= bytes.count {
                let plain = XMLText.plainLength(bytes.word(at: index))
                index += plain
                if plain == 8 { continue }
            }
            let byte = bytes[index]
            // Letters and most punctuation (above `<`, not `]`, not beyond ASCII), then digits,
            // space and the rest below `<` but `&`: everything else is rare.
            if byte &- 0x3D < 0x43, byte != 0x5D {
                index += 1
                continue
            }
            if byte &- 0x20 < 0x1C, byte != 0x26 {
                index += 1
                continue
            }
            if byte == 0x3C { break }
            if byte == 0x26 {
                guard let (_, end) = XMLText.reference(bytes, at: index) else { throw Decline() }
                flags.insert(.escaped)
                index = end
            } else if byte == 0x5D {
                // `]]>` may not appear in text.
                if index + 2 < bytes.count, bytes[index + 1] == 0x5D, bytes[index + 2] == 0x3E { throw Decline() }
                index += 1
            } else if byte == 0x09 || byte == 0x0A {
                index += 1
            } else if byte == 0x0D {
                flags.insert(.escaped)
                index += 1
            } else if byte < 0x20 {
                throw Decline()
            } else {
                guard let end = XMLText.endOfUTF8Character(bytes, at: index) else { throw Decline() }
                flags.insert(.nonASCII)
                index = end
            }
        }
        guard index < bytes.count else { throw Decline() }
        position = index
        return flags
    }

    /// The index after the character at `index`, if XML allows it.
    func nextCharacter(_ bytes: Span<UInt8>, at index: Int) throws(Decline) -> Int {
        let byte = bytes[index]
        if byte >= 0x20 && byte < 0x80 || byte == 0x09 || byte == 0x0A || byte == 0x0D { return index + 1 }
        guard byte >= 0x80, let end = XMLText.endOfUTF8Character(bytes, at: index) else { throw Decline() }
        return end
    }

    @discardableResult
    mutating func skipWhitespace(_ bytes: Span<UInt8>) -> Bool {
        let start = position
        while position < bytes.count, isXMLWhitespace(bytes[position]) { position += 1 }
        return position > start
    }

    func starts(_ bytes: Span<UInt8>, _ text: String) -> Bool {
        guard position + text.utf8.count <= bytes.count else { return false }
        for (offset, byte) in text.utf8.enumerated() where bytes[position + offset] != byte { return false }
        return true
    }

    mutating func expect(_ bytes: Span<UInt8>, _ text: String) throws(Decline) {
        guard starts(bytes, text) else { throw Decline() }
        position += text.utf8.count
    }

    mutating func expect(_ bytes: Span<UInt8>, _ byte: UInt8) throws(Decline) {
        guard position < bytes.count, bytes[position] == byte else { throw Decline() }
        position += 1
    }

    mutating func count(values: Int) throws(Decline) {
        do throws(PlistError) { try budget.count(objects: values, at: position) } catch { throw Decline() }
    }

    /// Counts raw text: at least what the reader counts (references and base64 shrink it).
    mutating func count(content: Int) throws(Decline) {
        do throws(PlistError) { try budget.count(contentBytes: content, at: position) } catch { throw Decline() }
    }
}

extension XMLTable.Kind {
    /// `</name>` of a leaf of this kind as two little-endian words, the masks of its bytes in
    /// them, and its length; `nil` for containers and Booleans. Constants, not a table: the
    /// table's lazy initialization was checked on every leaf. (A test derives them from the names.)
    package var endTag: (words: (UInt64, UInt64), masks: (UInt64, UInt64), length: Int)? {
        switch self {
        case .key: ((0x3E79_656B_2F3C, 0), (0xFFFF_FFFF_FFFF, 0), 6)
        case .string: ((0x676E_6972_7473_2F3C, 0x3E), (.max, 0xFF), 9)
        case .integer: ((0x6567_6574_6E69_2F3C, 0x3E72), (.max, 0xFFFF), 10)
        case .real: ((0x3E_6C61_6572_2F3C, 0), (0xFF_FFFF_FFFF_FFFF, 0), 7)
        case .date: ((0x3E_6574_6164_2F3C, 0), (0xFF_FFFF_FFFF_FFFF, 0), 7)
        case .data: ((0x3E_6174_6164_2F3C, 0), (0xFF_FFFF_FFFF_FFFF, 0), 7)
        case .dictionary, .array, .true, .false: nil
        }
    }
}
