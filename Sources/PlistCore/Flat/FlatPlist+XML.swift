extension FlatPlist {
    /// The value at node 0 as an XML property list: the same bytes `XMLWriter` writes for
    /// `plist(at: 0)`.
    /// - Throws: `.tooDeep` past `options.maxDepth`, `.outputTooLarge` past `options.maxOutputBytes`.
    package func xmlBytes(options: PlistWriteOptions) throws(PlistError) -> [UInt8] {
        // About what the tags, indentation and base64 add to the content.
        var text = XMLOutput(options: options, capacity: bytes.count / 3 * 4 + nodes.count * 48 + 256)
        var entries = FlatEntries()
        try FlatXMLWriter(flat: self, sortsKeys: options.sortsKeys).value(0, depth: 0, into: &text, &entries)
        return text.finish()
    }
}

/// Scratch space for the entries of the dictionaries being written, innermost last.
struct FlatEntries {
    var stack: [(key: Int32, value: Int32)] = []
    /// Per key number: the last dictionary that used it, to find keys added again.
    var seen: [Int] = []
    var dictionaryCount = 0

    /// Appends the entries of dictionary `node` of `flat` to `stack`; returns where they start.
    mutating func push(_ node: Int32, of flat: FlatPlist) -> Int {
        let start = stack.count
        dictionaryCount += 1
        flat.appendEntries(of: node, to: &stack, seen: &seen, dictionary: dictionaryCount)
        return start
    }
}

/// Writes a `FlatPlist` into `XMLOutput`, as `XMLWriter` writes the same value as a `Plist`.
private struct FlatXMLWriter {
    let flat: FlatPlist
    /// Per key number: its place among all keys in CoreFoundation's order; `nil` to keep each
    /// dictionary's own order.
    let ranks: [Int32]?

    init(flat: FlatPlist, sortsKeys: Bool) {
        self.flat = flat
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

    func value(_ node: Int32, depth: Int, into text: inout XMLOutput, _ entries: inout FlatEntries) throws(PlistError) {
        let value = flat.nodes[Int(node)]
        switch value.kind {
        case .string: try text.string(flat.bytes.span.extracting(flat.range(of: value)), depth: depth)
        case .signed:
            try text.integer(magnitude: value.payload, negative: Int64(bitPattern: value.payload) < 0, depth: depth)
        case .unsigned: try text.integer(magnitude: value.payload, negative: false, depth: depth)
        case .real: try text.real(Double(bitPattern: value.payload), depth: depth)
        case .bool: try text.bool(value.payload != 0, depth: depth)
        case .date: try text.date(secondsSinceReference: Double(bitPattern: value.payload), depth: depth)
        case .data: try text.data(flat.bytes.span.extracting(flat.range(of: value)), depth: depth)
        case .array:
            guard try text.open("array", isEmpty: value.count == 0, depth: depth) else { return }
            for child in flat.children(of: node) { try self.value(child, depth: depth + 1, into: &text, &entries) }
            text.close("array", depth: depth)
        case .dictionary:
            guard try text.open("dict", isEmpty: value.count == 0, depth: depth) else { return }
            let start = entries.push(node, of: flat)
            if let ranks { entries.stack[start...].sort { ranks[Int($0.key)] < ranks[Int($1.key)] } }
            for index in start..<entries.stack.count {
                let (key, child) = entries.stack[index]
                try text.key(flat.keys.names[Int(key)].utf8.span, depth: depth + 1)
                try self.value(child, depth: depth + 1, into: &text, &entries)
            }
            entries.stack.removeSubrange(start...)
            text.close("dict", depth: depth)
        }
    }
}
