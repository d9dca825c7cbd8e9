#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes a `Plist` as `bplist00` bytes.
///
/// Every scalar (string, number, date, data, UID, Boolean) is stored once however often it
/// appears: scalars are encoded first and uniqued by their exact encoded bytes, so `-0.0` and
/// `0.0`, or two Unicode spellings of the same text, stay distinct. A container is stored once
/// per instance, as CoreFoundation does: copies of one array or dictionary (which share
/// storage, as the reader's shared references do) become one object, so a small file that
/// describes a huge tree through shared references is written back just as small. Integers,
/// lengths, object references and offsets use the fewest bytes that hold them.
enum BinaryWriter {
    static func write(_ value: Plist, options: PlistWriteOptions) throws(PlistError) -> [UInt8] {
        var objects = TreeObjects(table: ObjectTable(maxDepth: options.maxDepth))
        _ = try objects.add(value, depth: 0)
        return objects.table.serialize()
    }
}

/// Adds a `Plist` to an `ObjectTable`.
private struct TreeObjects {
    var table: ObjectTable
    /// Containers already added: their object number and how many levels of containers they hold.
    var containers = StorageTable<(object: Int, height: Int)>()
    /// Key storages already added (dictionaries read with the same keys share them): where the
    /// references to their key objects were set first.
    var keySets = StorageTable<Int>()

    /// Adds `value` and everything in it, found inside `depth` containers; returns its object
    /// number and its height (0 for scalars).
    mutating func add(_ value: Plist, depth: Int) throws(PlistError) -> (object: Int, height: Int) {
        switch value {
        case .array(let elements):
            let identity = StorageIdentity(elements)
            if let known = try known(identity, depth: depth) { return known }
            let (object, start) = try table.reserveContainer(
                0xA0, count: elements.count, slots: elements.count, depth: depth)
            var height = 1
            for (offset, element) in elements.enumerated() {
                let child = try add(element, depth: depth + 1)
                table.setReference(start + offset, to: child.object)
                height = max(height, child.height + 1)
            }
            if let identity { containers.insert((object, height), for: identity) }
            return (object, height)
        case .dictionary(let dictionary):
            let identity = StorageIdentity(dictionary)
            if let known = try known(identity, depth: depth) { return known }
            let count = dictionary.count
            let (object, start) = try table.reserveContainer(0xD0, count: count, slots: 2 * count, depth: depth)
            setKeys(of: dictionary, at: start)
            var height = 1
            for (offset, element) in dictionary.valueStorage.enumerated() {
                let child = try add(element, depth: depth + 1)
                table.setReference(start + count + offset, to: child.object)
                height = max(height, child.height + 1)
            }
            if let identity { containers.insert((object, height), for: identity) }
            return (object, height)
        case .integer(let integer):
            return (table.addInteger(integer), 0)
        case .real(let real):
            return (table.addEightBytes(0x23, real.bitPattern), 0)
        case .date(let date):
            return (table.addEightBytes(0x33, date.timeIntervalSinceReferenceDate.bitPattern), 0)
        case .data(let data) where data.count >= ObjectTable.largeDataSize:
            return (table.addLargeData(data), 0)
        default:
            return (table.addScalar { ScalarEncoding.scalar(value, into: &$0) }, 0)
        }
    }

    /// Sets the references to the keys of `dictionary` at `start`: the key objects of a key
    /// storage met before are reused, not encoded and looked up again.
    private mutating func setKeys(of dictionary: PlistDictionary, at start: Int) {
        let identity = StorageIdentity(keysOf: dictionary)
        if let first = keySets[identity] {
            table.copyReferences(dictionary.count, from: first, to: start)
            return
        }
        for (offset, key) in dictionary.keyStorage.keys.enumerated() {
            table.setReference(start + offset, to: table.addScalar { ScalarEncoding.string(key, into: &$0) })
        }
        keySets.insert(start, for: identity)
    }

    /// The container with `identity` if it was added already, after checking that it is not
    /// too deep where it appears now.
    private func known(_ identity: StorageIdentity?, depth: Int) throws(PlistError) -> (object: Int, height: Int)? {
        guard let identity, let known = containers[identity] else { return nil }
        guard depth + known.height <= table.maxDepth else { throw PlistError(.tooDeep(limit: table.maxDepth), at: 0) }
        return known
    }
}

/// The objects of one file in the order they are added, object 0 being the top: scalars
/// stored once each, containers with the object numbers of their contents. The writers of
/// `Plist` and of `FlatPlist` add to it, in the same order for the same value.
struct ObjectTable {
    struct Entry: BitwiseCopyable {
        /// 0 for a scalar, 0x40 for large data, else the container marker's high nibble (0xA0 or 0xD0).
        var marker: UInt8
        /// Scalars: where its bytes start in `scalarBytes`. Large data: its index in `largeData`.
        /// Containers: where its references start in `references`.
        var start: Int
        /// Scalars: its length in bytes. Large data: its number of bytes. Containers: the number
        /// of elements or entries.
        var count: Int
    }

    /// Data of this many bytes or more is kept as the `Data` it is (`largeData`) and copied once,
    /// into the file, instead of first into `scalarBytes` and then into the file.
    static let largeDataSize = 256

    let maxDepth: Int
    var entries: [Entry] = []
    var scalarBytes: [UInt8] = []
    /// The object numbers in every container, which its walker fills in.
    var references: [Int32] = []
    var scalarIndex: ScalarIndex
    /// The `Plist` writer's data of `largeDataSize` bytes or more, in the order added.
    var largeData: [Data] = []
    /// The large data objects by a hash of their bytes: equal data is stored once, as in `scalarIndex`.
    var largeDataIndex: [UInt64: [Int]] = [:]
    /// Integers, reals and dates, found by their marker and bits without reading their bytes.
    var wordIndex: WordIndex
    /// Per integer in `0..<smallIntegerCache.count`: its object, or -1 before it is first added.
    /// Most integers in real files are small, and this finds them without hashing.
    private var smallIntegerCache = [Int32](repeating: -1, count: 4096)

    /// A table with room for about `expectedObjects` objects, `expectedReferences` references
    /// in containers and `expectedScalarBytes` bytes of scalars, so that it need not grow.
    init(maxDepth: Int, expectedObjects: Int = 0, expectedReferences: Int = 0, expectedScalarBytes: Int = 0) {
        self.maxDepth = maxDepth
        entries = [Entry](largeCapacity: expectedObjects)
        references = [Int32](largeCapacity: expectedReferences)
        scalarBytes = [UInt8](largeCapacity: expectedScalarBytes)
        scalarIndex = ScalarIndex(capacity: expectedObjects / 2)
        wordIndex = WordIndex(capacity: expectedObjects / 2)
    }

    /// Adds a container of `count` elements or entries (`slots` references) found inside
    /// `depth` containers; returns its object number and where its references start.
    mutating func reserveContainer(
        _ marker: UInt8, count: Int, slots: Int, depth: Int
    ) throws(PlistError) -> (object: Int, start: Int) {
        guard depth < maxDepth else { throw PlistError(.tooDeep(limit: maxDepth), at: 0) }
        let start = references.count
        references.append(contentsOf: repeatElement(0, count: slots))
        entries.append(Entry(marker: marker, start: start, count: count))
        return (entries.count - 1, start)
    }

    /// Sets reference `slot` of a container to `object`.
    mutating func setReference(_ slot: Int, to object: Int) {
        references[slot] = Int32(truncatingIfNeeded: object)
    }

    /// Sets references `slot..<slot + count` to those at `source..<source + count`.
    mutating func copyReferences(_ count: Int, from source: Int, to slot: Int) {
        for offset in 0..<count { references[slot + offset] = references[source + offset] }
    }

    /// Adds an integer, as `addScalar` does.
    mutating func addInteger(_ integer: PlistInteger) -> Int {
        guard let small = integer.int, small >= 0, small < smallIntegerCache.count else {
            let (marker, bits) = Self.wordKey(of: integer)
            return addWord(marker, bits) { ScalarEncoding.integer(integer, into: &$0) }
        }
        if smallIntegerCache[small] >= 0 { return Int(smallIntegerCache[small]) }
        let object = addScalar { ScalarEncoding.integer(integer, into: &$0) }
        smallIntegerCache[small] = Int32(truncatingIfNeeded: object)
        return object
    }

    /// How `wordIndex` knows an integer: integers above Int64.max (written in 16 bytes) apart
    /// from the others.
    private static func wordKey(of integer: PlistInteger) -> (marker: UInt8, bits: UInt64) {
        (integer.int64 == nil ? 0x14 : 0x10, integer.uint64 ?? integer.bitPattern)
    }

    /// Reads where `addInteger` will look `integer` up, and returns a byte of it: reading the
    /// slots of a container's values before adding them lets their cache misses overlap
    /// instead of coming one after another.
    func touchInteger(_ integer: PlistInteger) -> UInt8 {
        if let small = integer.int, small >= 0, small < smallIntegerCache.count { return 0 }
        let (marker, bits) = Self.wordKey(of: integer)
        return wordIndex.touch(marker, bits)
    }

    /// Reads where `addEightBytes` will look a real or date up, as `touchInteger` does.
    func touchEightBytes(_ marker: UInt8, _ bits: UInt64) -> UInt8 {
        wordIndex.touch(marker, bits)
    }

    /// Adds a real (marker 0x23) or date (0x33) from its bits, as `addScalar` does.
    mutating func addEightBytes(_ marker: UInt8, _ bits: UInt64) -> Int {
        addWord(marker, bits) { ScalarEncoding.eightBytes(marker, bits, into: &$0) }
    }

    /// Adds the scalar whose encoding `encode` writes, known to be one-to-one with `marker`
    /// and `bits`, as `addScalar` does.
    private mutating func addWord(_ marker: UInt8, _ bits: UInt64, _ encode: (inout [UInt8]) -> Void) -> Int {
        let (existing, slot) = wordIndex.find(marker, bits)
        if let existing { return existing }
        let start = scalarBytes.count
        encode(&scalarBytes)
        entries.append(Entry(marker: 0, start: start, count: scalarBytes.count - start))
        wordIndex.insert(entries.count - 1, marker, bits, at: slot)
        return entries.count - 1
    }

    /// Encodes a scalar at the end of `scalarBytes`, then keeps it as a new object or, when the
    /// same bytes were stored before, drops it and returns the earlier object.
    mutating func addScalar(_ encode: (inout [UInt8]) -> Void) -> Int {
        let start = scalarBytes.count
        encode(&scalarBytes)
        let hash = ScalarIndex.hash(scalarBytes[start...])
        let (existing, slot) = scalarIndex.find(
            hash: hash, candidate: scalarBytes[start...], bytes: scalarBytes, entries: entries)
        if let existing {
            scalarBytes.removeSubrange(start...)
            return existing
        }
        entries.append(Entry(marker: 0, start: start, count: scalarBytes.count - start))
        scalarIndex.insert(entries.count - 1, hash: hash, at: slot)
        return entries.count - 1
    }

    /// Adds data of `largeDataSize` bytes or more, as `addScalar` does: the same file bytes, but
    /// the data is not copied until it is written into the file.
    mutating func addLargeData(_ data: Data) -> Int {
        let hash = SeededHash.bytes(data.span)
        for object in largeDataIndex[hash, default: []] where largeData[entries[object].start] == data {
            return object
        }
        largeData.append(data)
        entries.append(Entry(marker: 0x40, start: largeData.count - 1, count: data.count))
        largeDataIndex[hash, default: []].append(entries.count - 1)
        return entries.count - 1
    }

    func serialize() -> [UInt8] {
        let referenceSize = byteWidth(holding: UInt64(entries.count))
        var objectAreaSize = scalarBytes.count
        for entry in entries where entry.marker != 0 {
            let unit = entry.marker == 0x40 ? 1 : (entry.marker == 0xD0 ? 2 : 1) * referenceSize
            objectAreaSize += 1 + lengthSize(entry.count) + entry.count * unit
        }
        let tableOffset = 8 + objectAreaSize
        let offsetSize = byteWidth(holding: UInt64(tableOffset))
        var out = [UInt8](largeCapacity: tableOffset + entries.count * offsetSize + BinaryTrailer.size)
        out.append(contentsOf: "bplist00".utf8)
        var offsets = [Int](largeCapacity: entries.count)
        // The closures below capture this, not `self` (which they would copy for each container).
        let references = references
        var index = 0
        while index < entries.count {
            let entry = entries[index]
            offsets.append(out.count)
            index += 1
            guard entry.marker != 0 else {
                // Scalars added one after another lie one after another in `scalarBytes`: one copy.
                var end = entry.start + entry.count
                while index < entries.count, entries[index].marker == 0, entries[index].start == end {
                    offsets.append(out.count + end - entry.start)
                    end += entries[index].count
                    index += 1
                }
                out.append(contentsOf: scalarBytes[entry.start..<end])
                continue
            }
            ScalarEncoding.header(entry.marker, count: entry.count, into: &out)
            if entry.marker == 0x40 {
                out.append(contentsOf: largeData[entry.start])
                continue
            }
            let slots = entry.start..<entry.start + (entry.marker == 0xD0 ? 2 * entry.count : entry.count)
            out.append(addingCapacity: slots.count * referenceSize) { span in
                for slot in slots { span.appendBigEndian(UInt64(references[slot]), width: referenceSize) }
            }
        }
        assert(out.count == tableOffset)
        out.append(addingCapacity: offsets.count * offsetSize) { span in
            for offset in offsets { span.appendBigEndian(UInt64(offset), width: offsetSize) }
        }
        BinaryTrailer.append(
            offsetSize: offsetSize, referenceSize: referenceSize, objectCount: entries.count, topObject: 0,
            tableOffset: tableOffset, to: &out)
        return out
    }
}

/// How many slots a hash index with room for `capacity` entries at most half full starts with:
/// a power of two, at least 1024.
private func hashSlotCount(for capacity: Int) -> Int {
    var size = 1024
    while size < 2 * capacity { size *= 2 }
    return size
}

/// An open-addressing hash set of the scalar objects, keyed by their encoded bytes.
struct ScalarIndex {
    // Invariant: each slot is 0 (empty) or `hash << 32 | (object + 1)`; at most half are full.
    private var slots: [UInt64]
    private var count = 0

    /// An index with room for `capacity` objects before it grows.
    init(capacity: Int) {
        slots = [UInt64](largeRepeating: 0, count: hashSlotCount(for: capacity))
    }

    static func hash(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        UInt32(truncatingIfNeeded: SeededHash.bytes(bytes.span))
    }

    /// The object whose bytes (`bytes[entry.start...]` for its entry) equal `candidate`, or
    /// the empty slot where it belongs.
    func find(
        hash: UInt32, candidate: ArraySlice<UInt8>, bytes: [UInt8], entries: [ObjectTable.Entry]
    ) -> (object: Int?, slot: Int) {
        let mask = slots.count - 1
        let length = candidate.count
        var slot = Int(hash) & mask
        while slots[slot] != 0 {
            let stored = slots[slot]
            if UInt32(truncatingIfNeeded: stored >> 32) == hash {
                let object = Int(truncatingIfNeeded: stored & 0xFFFF_FFFF) - 1
                let entry = entries[object]
                if entry.count == length, bytes[entry.start..<entry.start + length] == candidate {
                    return (object, slot)
                }
            }
            slot = (slot + 1) & mask
        }
        return (nil, slot)
    }

    mutating func insert(_ object: Int, hash: UInt32, at slot: Int) {
        slots[slot] = UInt64(hash) << 32 | UInt64(object + 1)
        count += 1
        guard 2 * count > slots.count else { return }
        let old = slots
        slots = [UInt64](largeRepeating: 0, count: 2 * old.count)
        let mask = slots.count - 1
        for stored in old where stored != 0 {
            var index = Int(truncatingIfNeeded: stored >> 32) & mask
            while slots[index] != 0 { index = (index + 1) & mask }
            slots[index] = stored
        }
    }
}

/// An open-addressing hash map from a scalar's marker and 8 bytes of bits to its object: the
/// key is kept in the slot, so a lookup reads one cache line.
struct WordIndex {
    // Invariant: slot i is words[2i] (the bits) and words[2i + 1] (0 when empty, else
    // `marker << 32 | (object + 1)`); at most half the slots are full.
    private var words: [UInt64]
    private var count = 0

    init(capacity: Int) {
        words = [UInt64](largeRepeating: 0, count: 2 * hashSlotCount(for: capacity))
    }

    /// The slot where `marker` and `bits` are looked for first.
    private func firstSlot(_ marker: UInt8, _ bits: UInt64) -> Int {
        Int(truncatingIfNeeded: SeededHash.word(bits, tag: marker)) & (words.count / 2 - 1)
    }

    /// The object with `marker` and `bits`, or the empty slot where it belongs.
    func find(_ marker: UInt8, _ bits: UInt64) -> (object: Int?, slot: Int) {
        let mask = words.count / 2 - 1
        var slot = firstSlot(marker, bits)
        while words[2 * slot + 1] != 0 {
            let tag = words[2 * slot + 1]
            if words[2 * slot] == bits, tag >> 32 == UInt64(marker) {
                return (Int(truncatingIfNeeded: tag & 0xFFFF_FFFF) - 1, slot)
            }
            slot = (slot + 1) & mask
        }
        return (nil, slot)
    }

    /// A byte of the slot where `marker` and `bits` would be looked up first.
    func touch(_ marker: UInt8, _ bits: UInt64) -> UInt8 {
        UInt8(truncatingIfNeeded: words[2 * firstSlot(marker, bits) + 1])
    }

    mutating func insert(_ object: Int, _ marker: UInt8, _ bits: UInt64, at slot: Int) {
        words[2 * slot] = bits
        words[2 * slot + 1] = UInt64(marker) << 32 | UInt64(object + 1)
        count += 1
        guard 4 * count > words.count else { return }
        let old = words
        words = [UInt64](largeRepeating: 0, count: 2 * old.count)
        count = 0
        for index in stride(from: 0, to: old.count, by: 2) where old[index + 1] != 0 {
            let tag = old[index + 1]
            let marker = UInt8(truncatingIfNeeded: tag >> 32)
            let free = find(marker, old[index]).slot
            words[2 * free] = old[index]
            words[2 * free + 1] = tag
            count += 1
        }
    }
}

/// The byte encodings of scalar objects and object headers.
enum ScalarEncoding {
    static func scalar(_ value: Plist, into out: inout [UInt8]) {
        switch value {
        case .string(let string):
            self.string(string, into: &out)
        case .integer(let integer):
            self.integer(integer, into: &out)
        case .real(let real):
            eightBytes(0x23, real.bitPattern, into: &out)
        case .bool(let bool):
            out.append(bool ? 0x09 : 0x08)
        case .date(let date):
            eightBytes(0x33, date.timeIntervalSinceReferenceDate.bitPattern, into: &out)
        case .data(let data):
            header(0x40, count: data.count, into: &out)
            out.append(contentsOf: data)
        case .uid(let uid):
            let width = uid <= 0xFF ? 1 : uid <= 0xFFFF ? 2 : uid <= 0xFFFF_FFFF ? 4 : 8
            out.append(0x80 | UInt8(width - 1))
            appendUInt(uid, width: width, to: &out)
        case .array, .dictionary:
            preconditionFailure("containers are not scalars")
        }
    }

    /// A real (marker 0x23) or date (0x33) from its bits.
    static func eightBytes(_ marker: UInt8, _ bits: UInt64, into out: inout [UInt8]) {
        out.append(marker)
        appendUInt(bits, width: 8, to: &out)
    }

    /// `string`, as `string(_:knownASCII:into:)` writes its UTF-8; a native `String` knows
    /// whether it is ASCII, which spares reading it.
    static func string(_ string: String, into out: inout [UInt8]) {
        let text = string.utf8Span
        Self.string(text.span, knownASCII: text.isKnownASCII, into: &out)
    }

    /// The string with UTF-8 `utf8` (valid, as every `String`'s is): ASCII (0x5X) when every
    /// character is ASCII (as `knownASCII` may say), else UTF-16BE (0x6X).
    static func string(_ utf8: Span<UInt8>, knownASCII: Bool = false, into out: inout [UInt8]) {
        if knownASCII || utf8.isASCII {
            header(0x50, count: utf8.count, into: &out)
            out.append(addingCapacity: utf8.count) { $0.append(copying: utf8) }
            return
        }
        // Every byte but a continuation byte starts a character; 4-byte ones take two units.
        var units = 0
        for index in utf8.indices where utf8[index] & 0xC0 != 0x80 { units += utf8[index] >= 0xF0 ? 2 : 1 }
        header(0x60, count: units, into: &out)
        out.append(addingCapacity: 2 * units) { span in
            var index = 0
            while index < utf8.count {
                let lead = UInt32(utf8[index])
                let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
                var value = length == 1 ? lead : lead & (0x7F >> length)
                for offset in 1..<length { value = value << 6 | UInt32(utf8[index + offset] & 0x3F) }
                index += length
                if value >= 0x10000 {
                    value -= 0x10000
                    span.appendBigEndian(UInt64(0xD800 | value >> 10), width: 2)
                    value = 0xDC00 | value & 0x3FF
                }
                span.appendBigEndian(UInt64(value), width: 2)
            }
        }
    }

    static func integer(_ integer: PlistInteger, into out: inout [UInt8]) {
        if let value = integer.uint64 {
            if value > UInt64(Int64.max) {
                out.append(0x14)
                appendUInt(0, width: 8, to: &out)
                appendUInt(value, width: 8, to: &out)
            } else {
                let width = value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
                out.append(0x10 | UInt8(width.trailingZeroBitCount))
                appendUInt(value, width: width, to: &out)
            }
        } else {
            out.append(0x13)
            appendUInt(integer.bitPattern, width: 8, to: &out)
        }
    }

    /// A marker with its count: in the low nibble below 15, else as a following integer object.
    static func header(_ marker: UInt8, count: Int, into out: inout [UInt8]) {
        if count < 0x0F {
            out.append(marker | UInt8(count))
        } else {
            out.append(marker | 0x0F)
            integer(PlistInteger(count), into: &out)
        }
    }
}

/// Bytes taken by the count after a marker (0 when it fits in the marker's low nibble).
private func lengthSize(_ count: Int) -> Int {
    count < 0x0F ? 0 : count <= 0xFF ? 2 : count <= 0xFFFF ? 3 : count <= 0xFFFF_FFFF ? 5 : 9
}

/// The fewest bytes (1...8) that hold `value`. (CoreFoundation requires the object count and
/// the offset table's offset to fit in the reference and offset widths.)
func byteWidth(holding value: UInt64) -> Int {
    max(1, (64 - value.leadingZeroBitCount + 7) / 8)
}

extension OutputSpan<UInt8> {
    /// The low `width` bytes of `value`, most significant first.
    @inline(__always)
    fileprivate mutating func appendBigEndian(_ value: UInt64, width: Int) {
        var shift = 8 * (width - 1)
        while shift >= 0 {
            append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            shift -= 8
        }
    }
}

@inline(__always)
func appendUInt(_ value: UInt64, width: Int, to out: inout [UInt8]) {
    out.append(addingCapacity: width) { $0.appendBigEndian(value, width: width) }
}

extension BinaryTrailer {
    /// Appends the trailer of a file with these fields to `out`.
    static func append(
        offsetSize: Int, referenceSize: Int, objectCount: Int, topObject: Int, tableOffset: Int, to out: inout [UInt8]
    ) {
        out.append(contentsOf: repeatElement(0, count: 6))
        out.append(UInt8(offsetSize))
        out.append(UInt8(referenceSize))
        appendUInt(UInt64(objectCount), width: 8, to: &out)
        appendUInt(UInt64(topObject), width: 8, to: &out)
        appendUInt(UInt64(tableOffset), width: 8, to: &out)
    }
}
