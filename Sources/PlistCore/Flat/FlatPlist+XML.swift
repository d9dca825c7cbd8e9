extension FlatPlist {
    /// The value at node 0 as an XML property list: the same bytes `XMLWriter` writes for
    /// `plist(at: 0)`.
    /// - Throws: `.tooDeep` past `options.maxDepth`, `.outputTooLarge` past `options.maxOutputBytes`.
    package func xmlBytes(options: PlistWriteOptions) throws(PlistError) -> [UInt8] {
        // About what the tags, indentation and base64 add to the content.
        let capacity = bytes.count / 3 * 4 + nodes.count * 48 + 256
        var writer = FlatXMLWriter(
            flat: self, text: XMLText(options: options, capacity: capacity), sortsKeys: options.sortsKeys)
        try writer.value(0, depth: 0)
        return writer.text.finish()
    }
}

/// Writes a `FlatPlist` into `XMLText`, as `XMLWriter` writes the same value as a `Plist`.
private struct FlatXMLWriter {
    let flat: FlatPlist
    var text: XMLText
    /// Per key number: its place among all keys in CoreFoundation's order; `nil` to keep each
    /// dictionary's own order.
    let ranks: [Int32]?
    /// The entries of the dictionaries being written, innermost last.
    var entries: [(key: Int32, value: Int32)] = []
    var seen: [Int] = []
    var dictionaryCount = 0

    init(flat: FlatPlist, text: XMLText, sortsKeys: Bool) {
        self.flat = flat
        self.text = text
        guard sortsKeys else {
            ranks = nil
            return
        }
        let names = flat.keys.names
        var ranks = [Int32](repeating: 0, count: names.count)
        let order = names.indices.sorted { KeyOrder.precedesInUTF16(names[$0], names[$1]) }
        for (rank, key) in order.enumerated() { ranks[key] = Int32(rank) }
        self.ranks = ranks
    }

    mutating func value(_ node: Int32, depth: Int) throws(PlistError) {
        let value = flat.nodes[Int(node)]
        switch value.kind {
        case .string: try text.string(flat.content(of: value), depth: depth)
        case .signed:
            try text.integer(magnitude: value.payload, negative: Int64(bitPattern: value.payload) < 0, depth: depth)
        case .unsigned: try text.integer(magnitude: value.payload, negative: false, depth: depth)
        case .real: try text.real(Double(bitPattern: value.payload), depth: depth)
        case .bool: try text.bool(value.payload != 0, depth: depth)
        case .date: try text.date(secondsSinceReference: Double(bitPattern: value.payload), depth: depth)
        case .data:
            let bytes = flat.bytes
            try text.data(
                bytes.span.extracting(Int(value.payload)..<Int(value.payload) + Int(value.count)), depth: depth)
        case .array:
            guard try text.open("array", isEmpty: value.count == 0, depth: depth) else { return }
            for child in flat.children(of: node) { try self.value(child, depth: depth + 1) }
            text.close("array", depth: depth)
        case .dictionary:
            guard try text.open("dict", isEmpty: value.count == 0, depth: depth) else { return }
            let start = entries.count
            dictionaryCount += 1
            flat.appendEntries(of: node, to: &entries, seen: &seen, dictionary: dictionaryCount)
            if let ranks { entries[start...].sort { ranks[Int($0.key)] < ranks[Int($1.key)] } }
            for index in start..<entries.count {
                let (key, child) = entries[index]
                try text.key(flat.keys.names[Int(key)].utf8, depth: depth + 1)
                try self.value(child, depth: depth + 1)
            }
            entries.removeSubrange(start...)
            text.close("dict", depth: depth)
        }
    }
}
