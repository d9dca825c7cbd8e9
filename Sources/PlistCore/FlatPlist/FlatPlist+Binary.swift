extension FlatPlist {
    /// The value at node 0 as `bplist00` bytes: the same bytes `BinaryWriter` writes for
    /// `plist(at: 0)`.
    /// - Throws: `.tooDeep` past `options.maxDepth`.
    package func binaryBytes(options: PlistWriteOptions) throws(PlistError) -> [UInt8] {
        // Uniquing typically leaves half the nodes as objects. Each node is at most two
        // references (a value and its key). The table is made in place: a copy of it in a
        // local variable made the first insertions copy its indexes.
        let table = ObjectTable(
            maxDepth: options.maxDepth, expectedObjects: nodes.count / 2, expectedReferences: 2 * nodes.count,
            expectedScalarBytes: bytes.count + 3 * nodes.count)
        var objects = FlatObjects(flat: self, table: table)
        _ = try objects.add(0, depth: 0)
        return objects.table.serialize()
    }
}

/// Adds a `FlatPlist` to an `ObjectTable`, in the order `BinaryWriter` adds the same `Plist`:
/// a container, then its keys, then its values.
private struct FlatObjects {
    let flat: FlatPlist
    var table: ObjectTable
    /// Per key number: its string's object, or -1 before it is first used.
    var keyObjects: [Int]
    /// The one object of all empty arrays, and of all empty dictionaries, once added: the
    /// `Plist` writer stores a container once per storage, and every empty array (dictionary)
    /// shares one.
    var emptyArray: Int?
    var emptyDictionary: Int?
    var entries = FlatEntries()
    /// What `touchSlot` read, kept so that its reads are not optimized away.
    var touched: UInt8 = 0

    init(flat: FlatPlist, table: ObjectTable) {
        self.flat = flat
        self.table = table
        keyObjects = Array(repeating: -1, count: flat.keys.names.count)
    }

    /// Adds node `node`, found inside `depth` containers, and everything in it; returns its object.
    mutating func add(_ node: Int32, depth: Int) throws(PlistError) -> Int {
        let value = flat.nodes[Int(node)]
        switch value.kind {
        case .array where value.count == 0:
            if let emptyArray, depth < table.maxDepth { return emptyArray }
            let object = try table.reserveContainer(.array, count: 0, slots: 0, depth: depth).object
            emptyArray = object
            return object
        case .dictionary where value.count == 0:
            if let emptyDictionary, depth < table.maxDepth { return emptyDictionary }
            let object = try table.reserveContainer(.dictionary, count: 0, slots: 0, depth: depth).object
            emptyDictionary = object
            return object
        case .array:
            let count = Int(value.count)
            let (object, start) = try table.reserveContainer(.array, count: count, slots: count, depth: depth)
            entries.touch(node, of: flat)
            for (offset, child) in flat.children(of: node).enumerated() {
                let childObject = try add(child, depth: depth + 1)
                table.setReference(start + offset, to: childObject)
            }
            return object
        case .dictionary:
            let first = entries.push(node, of: flat)
            let count = entries.stack.count - first
            let (object, start) = try table.reserveContainer(.dictionary, count: count, slots: 2 * count, depth: depth)
            for offset in 0..<count {
                table.setReference(start + offset, to: keyObject(entries.stack[first + offset].key))
            }
            for offset in 0..<count { touchSlot(of: entries.stack[first + offset].value) }
            for offset in 0..<count {
                let childObject = try add(entries.stack[first + offset].value, depth: depth + 1)
                table.setReference(start + count + offset, to: childObject)
            }
            entries.stack.removeSubrange(first...)
            return object
        case .string:
            let bytes = flat.bytes
            return table.addScalar { ScalarEncoding.string(bytes.span.extracting(flat.range(of: value)), into: &$0) }
        case .signed: return table.addInteger(PlistInteger(Int64(bitPattern: value.payload)))
        case .unsigned: return table.addInteger(PlistInteger(value.payload))
        case .real: return table.addEightBytes(BinaryMarker.real64, value.payload)
        case .date: return table.addEightBytes(BinaryMarker.date, value.payload)
        case .bool: return table.addScalar { $0.append(value.payload != 0 ? BinaryMarker.true : BinaryMarker.false) }
        case .data:
            let data = flat.content(of: value)
            return table.addScalar {
                ScalarEncoding.header(.data, count: data.count, into: &$0)
                $0.append(contentsOf: data)
            }
        }
    }

    /// Reads where the table will look up the number or date at `node` (see `touchInteger`).
    private mutating func touchSlot(of node: Int32) {
        let value = flat.nodes[Int(node)]
        switch value.kind {
        case .signed: touched &+= table.touchInteger(PlistInteger(Int64(bitPattern: value.payload)))
        case .unsigned: touched &+= table.touchInteger(PlistInteger(value.payload))
        case .real: touched &+= table.touchEightBytes(BinaryMarker.real64, value.payload)
        case .date: touched &+= table.touchEightBytes(BinaryMarker.date, value.payload)
        default: break
        }
    }

    private mutating func keyObject(_ key: Int32) -> Int {
        if keyObjects[Int(key)] >= 0 { return keyObjects[Int(key)] }
        let name = flat.keys.names[Int(key)]
        let object = table.addScalar { ScalarEncoding.string(name, into: &$0) }
        keyObjects[Int(key)] = object
        return object
    }
}
