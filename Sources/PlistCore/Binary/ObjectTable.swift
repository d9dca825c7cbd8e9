#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The objects of one file in the order they are added, object 0 being the top: scalars
/// stored once each, containers with the object numbers of their contents. The writers of
/// `Plist` and of `FlatPlist` add to it, in the same order for the same value.
struct ObjectTable {
    struct Entry: BitwiseCopyable {
        /// 0 for a scalar, else the marker of its kind with a zero low nibble: large data, an
        /// array or a dictionary (`BinaryMarker.Kind.marker()`).
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
        _ kind: BinaryMarker.Kind, count: Int, slots: Int, depth: Int
    ) throws(PlistError) -> (object: Int, start: Int) {
        guard depth < maxDepth else { throw PlistError(.tooDeep(limit: maxDepth), at: 0) }
        let start = references.count
        references.append(contentsOf: repeatElement(0, count: slots))
        entries.append(Entry(marker: kind.marker(), start: start, count: count))
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
        (
            integer.int64 == nil ? BinaryMarker.int128 : BinaryMarker.Kind.integer.marker(),
            integer.uint64 ?? integer.bitPattern
        )
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

    /// Adds a real (`BinaryMarker.real64`) or date (`BinaryMarker.date`) from its bits, as `addScalar` does.
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
        entries.append(Entry(marker: BinaryMarker.Kind.data.marker(), start: largeData.count - 1, count: data.count))
        largeDataIndex[hash, default: []].append(entries.count - 1)
        return entries.count - 1
    }

    func serialize() -> [UInt8] {
        let referenceSize = byteWidth(holding: UInt64(entries.count))
        var objectAreaSize = scalarBytes.count
        for entry in entries where entry.marker != 0 {
            let kind = BinaryMarker.Kind(entry.marker)
            let unit = kind == .data ? 1 : (kind == .dictionary ? 2 : 1) * referenceSize
            objectAreaSize += 1 + lengthSize(entry.count) + entry.count * unit
        }
        let tableOffset = 8 + objectAreaSize
        let offsetSize = byteWidth(holding: UInt64(tableOffset))
        var out = [UInt8](largeCapacity: tableOffset + entries.count * offsetSize + BinaryTrailer.size)
        out.append(contentsOf: BinaryMarker.header)
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
            let kind = BinaryMarker.Kind(entry.marker)
            ScalarEncoding.header(kind, count: entry.count, into: &out)
            if kind == .data {
                out.append(contentsOf: largeData[entry.start])
                continue
            }
            let slots = entry.start..<entry.start + (kind == .dictionary ? 2 * entry.count : entry.count)
            out.append(addingCapacity: slots.count * referenceSize) { span in
                for slot in slots { span.appendBigEndian(UInt64(references[slot]), width: referenceSize) }
            }
        }
        assert(out.count == tableOffset)
        out.append(addingCapacity: offsets.count * offsetSize) { span in
            for offset in offsets { span.appendBigEndian(UInt64(offset), width: offsetSize) }
        }
        BinaryTrailer(
            offsetSize: offsetSize, referenceSize: referenceSize, objectCount: entries.count, topObject: 0,
            tableOffset: tableOffset
        ).append(to: &out)
        return out
    }
}

/// Bytes taken by the count after a marker (0 when it fits in the marker's low nibble).
private func lengthSize(_ count: Int) -> Int {
    count < BinaryMarker.countFollows ? 0 : 1 + BinaryMarker.powerOfTwoWidth(holding: UInt64(count))
}
