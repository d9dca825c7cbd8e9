extension FlatPlist {
    /// The value at node 0 as an XML property list: the same bytes `XMLWriter` writes for
    /// `plist(at: 0)`. Written on the calling thread, unless `parallelism` allows more threads
    /// and the value is large enough for them to help (`XMLParts`).
    /// - Throws: `.tooDeep` past `options.maxDepth`, `.outputTooLarge` past `options.maxOutputBytes`,
    ///   `.unrepresentable` with its key path for a date outside the years 1 to 9999 or a key
    ///   `XMLWriter.problem(withKey:)` refuses.
    package func xmlBytes(options: PlistWriteOptions, parallelism: Int = 1) throws(PlistError) -> [UInt8] {
        let threads = parallelism > 1 ? XMLParts.threads(forNodes: nodes.count, atMost: parallelism) : 1
        return try xmlBytes(options: options, threads: threads)
    }

    /// `xmlBytes(options:)` written by up to `threads` threads.
    package func xmlBytes(options: PlistWriteOptions, threads: Int) throws(PlistError) -> [UInt8] {
        // Keys are written ahead, into lines of their own (`XMLOutput.keyLine`), which do not throw.
        if let problem = keys.names.lazy.compactMap({ XMLWriter.problem(withKey: $0.utf8.span) }).first {
            let error = PlistError(.unrepresentable(keyPath: "", type: problem, format: "XML"), at: 0)
            throw XMLWriter.withKeyPath(error, in: plist(at: 0), rules: options.rules)
        }
        var writer = FlatXMLWriter(flat: self, sortsKeys: options.sortsKeys)
        if threads > 1, let parts = writer.parts(maxDepth: options.maxDepth),
            let bytes = parts.write(with: writer, threads: threads, options: options, capacity: xmlCapacity)
        {
            return bytes
        }
        var text = XMLOutput(options: options, capacity: xmlCapacity)
        do {
            try writer.value(0, depth: 0, into: &text)
        } catch {
            throw XMLWriter.withKeyPath(error, in: plist(at: 0), rules: options.rules)
        }
        return text.finish()
    }

    /// About how many bytes the XML takes: what the tags, indentation and base64 add to the content.
    var xmlCapacity: Int { bytes.count / 3 * 4 + nodes.count * 48 + 256 }
}

/// Scratch space for the entries of the dictionaries being written, innermost last.
struct FlatEntries {
    var stack: [(key: Int32, value: Int32)] = []
    /// Per key number: the last dictionary that used it, to find keys added again.
    var seen: [Int] = []
    var dictionaryCount = 0
    /// What `touch` read, kept so that its reads are not optimized away.
    private var touched: UInt8 = 0

    /// Appends the entries of dictionary `node` of `flat` to `stack`; returns where they start.
    mutating func push(_ node: Int32, of flat: FlatPlist) -> Int {
        touch(node, of: flat)
        let start = stack.count
        dictionaryCount += 1
        flat.appendEntries(of: node, to: &stack, seen: &seen, dictionary: dictionaryCount)
        return start
    }

    /// Brings the nodes and bytes of container `node`'s children into the cache (`touchChildren`).
    mutating func touch(_ node: Int32, of flat: FlatPlist) {
        touched &+= flat.touchChildren(of: node)
    }
}

/// Writes a `FlatPlist` into `XMLOutput`, as `XMLWriter` writes the same value as a `Plist`.
struct FlatXMLWriter {
    let flat: FlatPlist
    /// The line of every key (`<key>...</key>` and the newline), made once, one after another
    /// in the order the keys are written in (CoreFoundation's when sorting): the lines of a
    /// dictionary's keys then lie together, where in the order the keys were numbered (a large
    /// dictionary's in its hash order) reading each was a cache miss.
    let keyLines: [UInt8]
    /// Per key number: where its line is in `keyLines`.
    let keyLineRanges: [Range<Int>]
    /// CoreFoundation's order of the keys; `nil` to keep each dictionary's own order.
    let ranking: KeyRanking?
    /// The entries of the dictionaries being written.
    var entries = FlatEntries()
    /// Scratch space of `pushSorted`: per place among the first keys, the entry with that key.
    var slots = [Int32](repeating: -1, count: KeyRanking.firstKeyCount)
    /// The container whose entries this writer shares with other threads; `nil` when it writes
    /// all of the document.
    var parts: XMLParts?
    /// Where the other threads' chunks go in the text, once written up to there.
    var partsOffset = -1

    /// A writer of `flat`, its keys in CoreFoundation's order when `sortsKeys`.
    init(flat: FlatPlist, sortsKeys: Bool) {
        self.flat = flat
        let names = flat.keys.names
        let order = sortsKeys ? KeyOrder.sortedIndices(names) : nil
        var keyLines: [UInt8] = []
        var keyLineRanges = [Range<Int>](repeating: 0..<0, count: names.count)
        for key in order ?? Array(names.indices) {
            let start = keyLines.count
            XMLOutput.keyLine(names[key].utf8.span, into: &keyLines)
            keyLineRanges[key] = start..<keyLines.count
        }
        self.keyLines = keyLines
        self.keyLineRanges = keyLineRanges
        ranking = order.map(KeyRanking.init)
    }

    mutating func value(_ node: Int32, depth: Int, into text: inout XMLOutput) throws(PlistError) {
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
        case .array, .dictionary:
            let name: StaticString = value.kind == .array ? "array" : "dict"
            guard try text.open(name, isEmpty: value.count == 0, depth: depth) else { return }
            if let parts, parts.container == node {
                try writeShared(parts, into: &text)
            } else if value.kind == .array {
                entries.touch(node, of: flat)
                for child in flat.children(of: node) { try self.value(child, depth: depth + 1, into: &text) }
            } else {
                let start = pushEntries(of: node)
                for index in start..<entries.stack.count {
                    let (key, child) = entries.stack[index]
                    try entry(key: key, value: child, depth: depth + 1, into: &text)
                }
                entries.stack.removeSubrange(start...)
            }
            text.close(name, depth: depth)
        }
    }

    /// Writes a dictionary's entry (its key line, then its value), or an array's element
    /// (`key` -1).
    @inline(__always)
    mutating func entry(key: Int32, value: Int32, depth: Int, into text: inout XMLOutput) throws(PlistError) {
        if key >= 0 { try text.line(keyLines.span.extracting(keyLineRanges[Int(key)]), depth: depth) }
        try self.value(value, depth: depth, into: &text)
    }

    /// Writes the chunks of `parts` the other threads leave, and notes where theirs go.
    private mutating func writeShared(_ parts: XMLParts, into text: inout XMLOutput) throws(PlistError) {
        try parts.writeFront(with: &self, into: &text)
        partsOffset = text.count
    }

    /// Appends the entries of dictionary `node` to `entries.stack` in the order they are
    /// written, each key once; returns where they start.
    mutating func pushEntries(of node: Int32) -> Int {
        ranking.map { pushSorted(node, $0) } ?? entries.push(node, of: flat)
    }

    /// Appends the entries of dictionary `node` to `entries.stack` in `ranking`'s order, each
    /// key once with the last value added under it; returns where they start.
    ///
    /// When every key is among the first keys (as in most dictionaries: a model's keys are
    /// numbered when its first value is encoded), each entry goes to its key's place in
    /// `slots` and a bit of a mask, and the set bits give the order: no sorting, and a key
    /// added again simply takes the later slot. Other dictionaries are sorted.
    private mutating func pushSorted(_ node: Int32, _ ranking: KeyRanking) -> Int {
        entries.touch(node, of: flat)
        let start = entries.stack.count
        var places = (low: UInt64(0), high: UInt64(0))
        var hasOtherKeys = false
        for child in flat.children(of: node) {
            let key = Int(flat.nodes[Int(child)].key)
            guard key < ranking.placeOfFirstKey.count else {
                hasOtherKeys = true
                break
            }
            let place = Int(ranking.placeOfFirstKey[key])
            slots[place] = child
            if place < 64 { places.low |= 1 << place } else { places.high |= 1 << (place - 64) }
        }
        if !hasOtherKeys {
            appendPlaces(places.low, from: 0, ranking)
            appendPlaces(places.high, from: 64, ranking)
            return start
        }
        for child in flat.children(of: node) { entries.stack.append((flat.nodes[Int(child)].key, child)) }
        // A key added again has a later node, so it sorts after the first and is kept.
        let ranks = ranking.ranks
        entries.stack[start...].sort { (ranks[Int($0.key)], $0.value) < (ranks[Int($1.key)], $1.value) }
        var kept = start
        for index in start..<entries.stack.count {
            if index + 1 < entries.stack.count, entries.stack[index + 1].key == entries.stack[index].key { continue }
            entries.stack[kept] = entries.stack[index]
            kept += 1
        }
        entries.stack.removeSubrange(kept...)
        return start
    }

    /// Appends the entry in `slots` of each place `offset + n` whose bit `n` of `bits` is set,
    /// in order.
    private mutating func appendPlaces(_ bits: UInt64, from offset: Int, _ ranking: KeyRanking) {
        var bits = bits
        while bits != 0 {
            let place = offset + bits.trailingZeroBitCount
            bits &= bits - 1
            entries.stack.append((ranking.firstKeysInOrder[place], slots[place]))
        }
    }
}

/// CoreFoundation's order of a `FlatPlist`'s keys.
struct KeyRanking {
    /// How many of the first keys (by number) `pushSorted` places without sorting: two words of bits.
    static let firstKeyCount = 128
    /// Per key number: its place among all keys.
    let ranks: [Int32]
    /// Per key number below `firstKeyCount`: its place among those keys.
    let placeOfFirstKey: [UInt8]
    /// The keys numbered below `firstKeyCount`, in order.
    let firstKeysInOrder: [Int32]

    /// The ranking of the keys numbered as `order` (the key numbers in CoreFoundation's order) holds.
    init(_ order: [Int]) {
        var ranks = [Int32](repeating: 0, count: order.count)
        for (rank, key) in order.enumerated() { ranks[key] = Int32(rank) }
        self.ranks = ranks
        let first = min(order.count, Self.firstKeyCount)
        firstKeysInOrder = (0..<Int32(first)).sorted { ranks[Int($0)] < ranks[Int($1)] }
        var placeOfFirstKey = [UInt8](repeating: 0, count: first)
        for (place, key) in firstKeysInOrder.enumerated() { placeOfFirstKey[Int(key)] = UInt8(place) }
        self.placeOfFirstKey = placeOfFirstKey
    }
}
