import PlistCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The values: start and end of containers, leaves read and parsed, and the checks of the
/// dictionaries' keys (order, repeats, `CF$UID`).
extension XMLTableBuilder {
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
            for index in 0..<raw.count where !TextCursor.isSpace(raw[index]) { throw Decline() }
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
}
