/// The objects of a `bplist00` file, read one at a time as a decoder asks for them, without
/// building the whole `Plist`: PlistKit's Codable decoder reads binary files through it.
///
/// It trusts nothing in the input, as `Plist(binary:)` does. Before anything is decoded, the
/// values reachable from the top are weighed by the tree reader's own walk (`ObjectDecoder`),
/// counting shared references at every use: a broken reference, a cycle, nesting past
/// `maxDepth`, more values than `maxObjects` or more string and data bytes than
/// `maxContentBytes` (as a small file whose shared references describe 2^64 values has) is
/// refused at once, so no decoder can be made to read more. Only the scalars' own bytes (their
/// text and numbers) are left to be read when a type asks for them.
///
/// Nothing changes after the weighing: scalars are read straight from the bytes, and keys are
/// matched by comparing their bytes, in every dictionary whose keys the weighing found to be
/// distinct ASCII strings (all of them, in files that CoreFoundation and this package write).
package final class BinaryObjects: IndexedPlist {
    private let bytes: [UInt8]
    private let layout: BinaryLayout
    private let budget: ReadBudget
    /// Per object: 0 unless it is a dictionary, reachable from the top, whose keys are distinct
    /// valid ASCII strings (other dictionaries are read as `IndexedDictionary.listed`); for
    /// those, bit 127 and the bit `n % 127` for each key number `n`. Keys are numbered in the
    /// order the weighing meets them, so the keys of one type's dictionaries get numbers close
    /// together, different bits: a missing optional key is mostly found missing at once.
    private let directDictionaries: [UInt128]
    /// Per object used as a key of a direct dictionary: the number of its text in `keyNumbering`.
    private let keyNumbers: [Int32]
    private let keyNumbering: KeyNumbering

    /// Checks the header, trailer and offset table of `bytes`, and weighs the values reachable
    /// from the top.
    /// - Throws: `PlistError` for a file whose layout is broken, a cycle, or a limit exceeded.
    package init(_ bytes: [UInt8], options: PlistReadOptions) throws(PlistError) {
        self.bytes = bytes
        layout = try BinaryLayout(bytes.span, maxObjects: options.maxObjects)
        budget = ReadBudget(options)
        // The tree reader's walk, reading only the lengths of scalars: the scalars a type asks
        // for are read (and reported) by the decoder, at their coding paths.
        var weigher = ObjectDecoder(
            layout: layout, options: options, slots: CountedSlots(layout: layout),
            mode: CodableWeighing(layout: layout))
        weigher.countReferences(bytes.span)
        _ = try weigher.object(bytes.span, layout.topObject, depth: 0)
        directDictionaries = weigher.mode.directDictionaries
        keyNumbers = weigher.mode.keyNumbers
        keyNumbering = weigher.mode.keyNumbering
    }

    package var top: Int { layout.topObject }

    /// Where object `ref` starts in the file.
    package func offset(of ref: Int) -> Int {
        let bytes = self.bytes
        return layout.offset(of: ref, in: bytes.span)
    }

    package func location(of node: Int) -> String { ", at byte \(offset(of: node))" }

    package func kind(of ref: Int) -> IndexedKind {
        let storage = self.bytes
        return switch BinaryMarker.Kind(storage.span[offset(of: ref)]) {
        case .array, .set: .array
        case .dictionary: .dictionary
        default: .scalar
        }
    }

    package func isNull(_ ref: Int) -> Bool {
        let storage = self.bytes
        let bytes = storage.span
        let offset = layout.offset(of: ref, in: bytes)
        // The ASCII string "$null" (a keyed archive's null), marker and text.
        let null: InlineArray<6, UInt8> = [BinaryMarker.Kind.asciiString.marker(low: 5), 0x24, 0x6E, 0x75, 0x6C, 0x6C]
        return offset + 6 <= layout.tableOffset && bytes.extracting(offset..<offset + 6).hasSameBytes(as: null.span)
    }

    package func scalar(_ ref: Int) throws(PlistError) -> Plist? {
        let storage = self.bytes
        let bytes = storage.span
        let offset = layout.offset(of: ref, in: bytes)
        let marker = bytes[offset]
        switch BinaryMarker.Kind(marker) {
        case .array, .set, .dictionary: return nil
        default:
            var scratch: [UInt8] = []
            return try layout.scalar(bytes, marker, at: offset, scratch: &scratch).value
        }
    }

    package func integer(_ ref: Int) -> PlistInteger? {
        let storage = self.bytes
        let bytes = storage.span
        let offset = layout.offset(of: ref, in: bytes)
        let marker = bytes[offset]
        guard BinaryMarker.Kind(marker) == .integer else { return nil }
        // 1, 2 and 4-byte integers are unsigned, 8-byte ones signed; 16-byte ones take the long way.
        guard marker <= BinaryMarker.int64 else { return try? layout.integer(bytes, marker, at: offset) }
        let width = 1 << Int(BinaryMarker.low(marker))
        guard width < layout.tableOffset - offset else { return nil }
        let bits = readUInt(bytes, at: offset + 1, width: width)
        return marker == BinaryMarker.int64 ? PlistInteger(Int64(bitPattern: bits)) : PlistInteger(bits)
    }

    package func real(_ ref: Int) -> Double? {
        let storage = self.bytes
        let bytes = storage.span
        let offset = layout.offset(of: ref, in: bytes)
        let marker = bytes[offset]
        guard BinaryMarker.Kind(marker) == .real else { return nil }
        return try? layout.real(bytes, marker, at: offset)
    }

    package func string(_ ref: Int) -> String? {
        let storage = self.bytes
        let bytes = storage.span
        let offset = layout.offset(of: ref, in: bytes)
        let marker = bytes[offset]
        guard BinaryMarker.Kind(marker) == .asciiString,
            let (count, start) = try? layout.length(bytes, marker, at: offset, unit: 1)
        else {
            return nil
        }
        return try? layout.asciiString(bytes, start, count)
    }

    package func bool(_ ref: Int) -> Bool? {
        let storage = self.bytes
        return switch storage.span[offset(of: ref)] {
        case BinaryMarker.false: false
        case BinaryMarker.true: true
        default: nil
        }
    }

    package func date(_ ref: Int) -> Double? {
        let storage = self.bytes
        let bytes = storage.span
        let offset = layout.offset(of: ref, in: bytes)
        let marker = bytes[offset]
        guard marker == BinaryMarker.date else { return nil }
        return try? layout.date(bytes, marker, at: offset)
    }

    package func array(_ ref: Int, depth: Int) throws(PlistError) -> IndexedElements {
        let storage = self.bytes
        let bytes = storage.span
        let offset = layout.offset(of: ref, in: bytes)
        try budget.enter(depth: depth, at: offset)
        let (count, start) = try layout.length(bytes, bytes[offset], at: offset, unit: layout.referenceSize)
        return IndexedElements(count: count, base: start)
    }

    package func element(_ index: Int, of elements: IndexedElements) -> Int {
        reference(at: elements.base + index * layout.referenceSize)
    }

    /// The entries of the dictionary `ref`, entered inside `depth` containers. A repeated key
    /// keeps its first place and its last value, as in `Plist(binary:)`; keys that `String`
    /// calls equal are one key (Codable matches keys as strings).
    package func dictionary(_ ref: Int, depth: Int) throws(PlistError) -> IndexedDictionary {
        let (count, start) = try entryCount(ref, depth: depth)
        if directDictionaries[ref] != 0 { return .entries(IndexedEntries(node: ref, count: count, base: start)) }
        var keys: [String] = []
        var values: [Int] = []
        var places: [String: Int] = [:]
        for (key, value) in try pairs(count: count, start: start) {
            if let place = places[key] {
                values[place] = value
            } else {
                places[key] = keys.count
                keys.append(key)
                values.append(value)
            }
        }
        return .listed(keys: keys, values: values)
    }

    package func exactEntries(_ ref: Int, depth: Int) throws(PlistError) -> [(key: String, value: Int)] {
        let (count, start) = try entryCount(ref, depth: depth)
        return try pairs(count: count, start: start)
    }

    /// The number of entries of the dictionary `ref` and where their key references start,
    /// entered inside `depth` containers.
    private func entryCount(_ ref: Int, depth: Int) throws(PlistError) -> (count: Int, start: Int) {
        let storage = self.bytes
        let bytes = storage.span
        let offset = layout.offset(of: ref, in: bytes)
        try budget.enter(depth: depth, at: offset)
        return try layout.length(bytes, bytes[offset], at: offset, unit: 2 * layout.referenceSize)
    }

    /// The keys and value references of the `count` entries whose key references start at `start`.
    private func pairs(count: Int, start: Int) throws(PlistError) -> [(key: String, value: Int)] {
        let storage = self.bytes
        let bytes = storage.span
        var result: [(key: String, value: Int)] = []
        result.reserveCapacity(count)
        var scratch: [UInt8] = []
        for index in 0..<count {
            let keyRef = try layout.reference(bytes, at: start + index * layout.referenceSize)
            let keyOffset = layout.offset(of: keyRef, in: bytes)
            let keyMarker = bytes[keyOffset]
            guard BinaryMarker.Kind(keyMarker) == .asciiString || BinaryMarker.Kind(keyMarker) == .utf16String,
                case .string(let key) = try layout.scalar(bytes, keyMarker, at: keyOffset, scratch: &scratch).value
            else {
                throw PlistError(.nonStringKey(marker: keyMarker), at: keyOffset)
            }
            result.append((key, try layout.reference(bytes, at: start + (count + index) * layout.referenceSize)))
        }
        return result
    }

    package func key(_ index: Int, of entries: IndexedEntries) -> String {
        let storage = self.bytes
        let bytes = storage.span
        let (start, count) = directKey(bytes, reference(at: entries.base + index * layout.referenceSize))
        // The weighing checked that the key is ASCII.
        return (try? layout.asciiString(bytes, start, count)) ?? ""
    }

    package func value(_ index: Int, of entries: IndexedEntries) -> Int {
        return reference(at: entries.base + (entries.count + index) * layout.referenceSize)
    }

    package func entry(forKey key: String, in entries: IndexedEntries, hint: Int) -> (index: Int, value: Int)? {
        guard let index = index(ofKey: key, in: entries, hint: hint) else { return nil }
        return (index, value(index, of: entries))
    }

    private func index(ofKey key: String, in entries: IndexedEntries, hint: Int) -> Int? {
        var text = key.utf8Span
        // A key that is not ASCII may still equal an ASCII one as a `String` (`"\u{212A}" == "K"`).
        guard text.isKnownASCII || text.checkForASCII() else {
            if hint < entries.count, self.key(hint, of: entries) == key { return hint }
            return (0..<entries.count).first { self.key($0, of: entries) == key }
        }
        let storage = self.bytes
        let bytes = storage.span
        let wanted = text.span
        let referenceSize = layout.referenceSize
        // Where declaration order puts it, compared as bytes.
        if hint < entries.count,
            keyEquals(bytes, reference(at: entries.base + hint * referenceSize), wanted)
        {
            return hint
        }
        // Elsewhere, by number, when this dictionary may have it.
        guard let number = keyNumbering.number(of: wanted),
            directDictionaries[entries.node] & 1 << UInt128(number % 127) != 0
        else { return nil }
        var position = entries.base
        for index in 0..<entries.count {
            if keyNumbers[Int(truncatingIfNeeded: readUInt(bytes, at: position, width: referenceSize))] == number {
                return index
            }
            position += referenceSize
        }
        return nil
    }

    private func keyEquals(_ bytes: Span<UInt8>, _ ref: Int, _ wanted: Span<UInt8>) -> Bool {
        let (start, count) = directKey(bytes, ref)
        return bytes.extracting(start..<start + count).hasSameBytes(as: wanted)
    }

    /// Where the bytes of key `ref` of a direct dictionary are. Invariant: the weighing checked
    /// that it is a valid ASCII string (marker `0x5n`).
    private func directKey(_ bytes: Span<UInt8>, _ ref: Int) -> (start: Int, count: Int) {
        let offset = layout.offset(of: ref, in: bytes)
        let marker = bytes[offset]
        guard BinaryMarker.low(marker) == BinaryMarker.countFollows else {
            return (offset + 1, Int(BinaryMarker.low(marker)))
        }
        let width = 1 << Int(BinaryMarker.low(bytes[offset + 1]))
        return (offset + 2 + width, Int(readUInt(bytes, at: offset + 2, width: width)))
    }

    /// The object reference at `position`. Invariant: every reference in the containers
    /// reachable from the top was checked by the weighing.
    private func reference(at position: Int) -> Int {
        let bytes = self.bytes
        let ref = Int(truncatingIfNeeded: readUInt(bytes.span, at: position, width: layout.referenceSize))
        precondition(ref >= 0 && ref < layout.objectCount, "references were checked by the weighing")
        return ref
    }
}

/// The mode of the walk that weighs a binary file for `BinaryObjects` (every check of the tree
/// reader except the scalars' own bytes), which also finds the dictionaries whose keys can be
/// matched as bytes.
struct CodableWeighing: DecodingMode {
    static var buildsValues: Bool { false }
    static var checksScalars: Bool { false }

    let layout: BinaryLayout
    /// Per object, as `BinaryObjects.directDictionaries`.
    var directDictionaries: [UInt128]
    /// Per object used as a key: -1 before it is first used, -2 when it is not a valid ASCII
    /// string, else the number of its text (equal texts share a number).
    var keyNumbers: [Int32]
    var keyNumbering = KeyNumbering()
    /// Per key number: the last dictionary (by `dictionaryCount`) that used it.
    var keyLastSeen: [Int32] = []
    var dictionaryCount: Int32 = 0

    init(layout: BinaryLayout) {
        self.layout = layout
        directDictionaries = Array(largeRepeating: 0, count: layout.objectCount)
        keyNumbers = Array(largeRepeating: -1, count: layout.objectCount)
    }

    mutating func dictionary(_ bytes: Span<UInt8>, _ layout: BinaryLayout, _ ref: Int, start: Int, count: Int) {
        directDictionaries[ref] = directKeys(bytes, start, count)
    }

    @inline(__always) mutating func didRead(at offset: Int, _ byteCount: Int) {}

    /// For `count` keys whose references start at `start` that are distinct valid ASCII strings,
    /// bit 127 and the bit `n % 127` for each key number `n`; else 0. A key that is not is left
    /// for the decoder to read (and report) when it opens the dictionary.
    private mutating func directKeys(_ bytes: Span<UInt8>, _ start: Int, _ count: Int) -> UInt128 {
        dictionaryCount += 1
        var mask: UInt128 = 1 << 127
        var position = start
        for _ in 0..<count {
            let ref = readUInt(bytes, at: position, width: layout.referenceSize)
            guard ref < UInt64(layout.objectCount) else { return 0 }
            var number = keyNumbers[Int(ref)]
            if number == -1 { number = keyNumber(bytes, Int(ref)) }
            guard number >= 0, keyLastSeen[Int(number)] != dictionaryCount else { return 0 }
            keyLastSeen[Int(number)] = dictionaryCount
            mask |= 1 << UInt128(number % 127)
            position += layout.referenceSize
        }
        return mask
    }

    /// Numbers key `ref`, met for the first time.
    private mutating func keyNumber(_ bytes: Span<UInt8>, _ ref: Int) -> Int32 {
        let offset = layout.offset(of: ref, in: bytes)
        let marker = bytes[offset]
        guard BinaryMarker.Kind(marker) == .asciiString,
            let (count, start) = try? layout.length(bytes, marker, at: offset, unit: 1),
            (try? layout.checkASCII(bytes, start, count)) != nil
        else {
            keyNumbers[ref] = -2
            return -2
        }
        let number = keyNumbering.number(adding: bytes.extracting(start..<start + count))
        if number == keyLastSeen.count { keyLastSeen.append(0) }
        keyNumbers[ref] = number
        return number
    }
}
