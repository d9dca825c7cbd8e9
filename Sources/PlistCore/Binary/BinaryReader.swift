#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads `bplist00` bytes into a `Plist`, trusting nothing in the input.
///
/// Strings, data and containers are decoded once and shared wherever they are referenced, so
/// time and memory stay proportional to the input; `maxObjects` bounds how large the shared
/// references may make the resulting tree look to the code that walks it.
enum BinaryReader {
    static func read(_ bytes: Span<UInt8>, options: PlistReadOptions) throws(PlistError) -> Plist {
        let trailer = try BinaryTrailer(bytes, maxObjects: options.maxObjects)
        try trailer.validateOffsets(bytes)
        var decoder = ObjectDecoder(trailer: trailer, options: options, slots: CountedSlots(trailer: trailer))
        decoder.countReferences(bytes)
        return try decoder.object(bytes, trailer.topObject, depth: 0).value
    }
}

struct Decoded {
    var value: Plist
    /// How many values this one stands for when expanded (itself and everything inside it), and
    /// how many bytes of string and data content.
    var weight = ReadBudget.Weight(objects: 1)
    /// How many levels of containers it holds (0 for scalars).
    var height = 0
}

/// The keys of a dictionary decoded with distinct string keys, which a later dictionary with the
/// same key references shares (`ObjectDecoder.keySets`).
struct KeySet {
    /// Where its key references start in the file.
    var start: Int
    var keys: DictionaryKeys
}

/// What an `ObjectDecoder` knows of each object: `unreferenced`, `referencedOnce`, `shared`
/// (referenced more than once, not decoded yet), `inProgress` (a container being decoded), or
/// its index in the decoder's memo plus one.
enum ObjectSlot {
    static let unreferenced: UInt32 = 0
    static let referencedOnce: UInt32 = .max - 2
    static let shared: UInt32 = .max - 1
    static let inProgress: UInt32 = .max
}

/// Where an `ObjectDecoder` keeps its `ObjectSlot` per object.
protocol ObjectSlots {
    /// Whether the reader checked the whole offset table before decoding (else each offset is
    /// checked as it is used).
    static var offsetsAreValidated: Bool { get }
    subscript(_ ref: Int) -> UInt32 { get set }
}

/// Slots for reading a whole file: one per object, filled by `ObjectDecoder.countReferences`,
/// so that only objects referenced more than once are remembered.
struct CountedSlots: ObjectSlots {
    static var offsetsAreValidated: Bool { true }
    private var slots: [UInt32]

    init(trailer: BinaryTrailer) {
        slots = Array(repeating: ObjectSlot.unreferenced, count: trailer.objectCount)
    }

    subscript(_ ref: Int) -> UInt32 {
        get { slots[ref] }
        set { slots[ref] = newValue }
    }
}

/// Slots for reading part of a file (`BinaryPlistFile`): only the objects met are kept, and
/// every one counts as shared (references were not counted), so memory follows what is read.
struct TouchedSlots: ObjectSlots {
    static var offsetsAreValidated: Bool { false }
    private var slots: [Int: UInt32] = [:]

    subscript(_ ref: Int) -> UInt32 {
        get { slots[ref, default: ObjectSlot.shared] }
        set { slots[ref] = newValue }
    }
}

/// Decodes objects of a `bplist00` file into `Plist` values, counting them against one
/// `ReadBudget`: the whole file for `BinaryReader`, one subtree for `BinaryPlistFile`.
struct ObjectDecoder<Slots: ObjectSlots> {
    let trailer: BinaryTrailer
    let budget: ReadBudget
    /// What is known of each object (see `ObjectSlots`). Only shared objects are remembered,
    /// so memory follows what the file really shares.
    var slots: Slots
    var memo: [Decoded] = []
    /// Reused buffer for transcoding UTF-16 strings.
    var scratch: [UInt8] = []
    /// Dictionaries decoded with distinct keys, by a hash of their key references: a later
    /// dictionary with the same key references takes its keys from the first one
    /// (`sharingKeys`), so the many dictionaries of one shape keep one copy of their keys.
    var keySets: [Int: KeySet] = [:]

    init(trailer: BinaryTrailer, options: PlistReadOptions, slots: Slots) {
        self.trailer = trailer
        budget = ReadBudget(options)
        self.slots = slots
    }

    /// Where object `ref` starts, checked unless the whole offset table was.
    @inline(__always)
    private func objectOffset(_ bytes: Span<UInt8>, _ ref: Int) throws(PlistError) -> Int {
        Slots.offsetsAreValidated ? trailer.offset(of: ref, in: bytes) : try trailer.checkedOffset(of: ref, in: bytes)
    }

    /// Counts the references to each object (up to "more than once"), reading every container
    /// whose length is valid; a container whose length is not is left to fail when decoded.
    mutating func countReferences(_ bytes: Span<UInt8>) {
        slots[trailer.topObject] = ObjectSlot.referencedOnce
        for object in 0..<trailer.objectCount {
            let offset = trailer.offset(of: object, in: bytes)
            let marker = bytes[offset]
            let isDictionary = marker >> 4 == 0xD
            guard isDictionary || marker >> 4 == 0xA || marker >> 4 == 0xC,
                let (count, start) = try? trailer.length(
                    bytes, marker, at: offset, unit: (isDictionary ? 2 : 1) * trailer.referenceSize)
            else { continue }
            var position = start
            for _ in 0..<(isDictionary ? 2 * count : count) {
                let ref = readUInt(bytes, at: position, width: trailer.referenceSize)
                if ref < UInt64(trailer.objectCount) {
                    let slot = slots[Int(ref)]
                    slots[Int(ref)] = slot == ObjectSlot.unreferenced ? ObjectSlot.referencedOnce : ObjectSlot.shared
                }
                position += trailer.referenceSize
            }
        }
    }

    /// Decodes object `ref` (already checked to be below the object count), found inside
    /// `depth` containers.
    mutating func object(_ bytes: Span<UInt8>, _ ref: Int, depth: Int) throws(PlistError) -> Decoded {
        let slot = slots[ref]
        if slot == ObjectSlot.inProgress {
            throw PlistError(.cycle(object: ref), at: try objectOffset(bytes, ref))
        }
        if slot != ObjectSlot.unreferenced, slot < ObjectSlot.referencedOnce {
            let shared = memo[Int(slot - 1)]
            // Its deepest container is `shared.height - 1` levels inside it.
            try budget.enter(depth: depth + shared.height - 1, at: try objectOffset(bytes, ref))
            return shared
        }
        let offset = try objectOffset(bytes, ref)
        let marker = bytes[offset]
        switch marker >> 4 {
        case 0xA, 0xC:
            return try array(bytes, ref, marker, at: offset, depth: depth)
        case 0xD:
            return try dictionary(bytes, ref, marker, at: offset, depth: depth)
        case 0x4, 0x5, 0x6:
            let (value, contentBytes) = try trailer.scalar(bytes, marker, at: offset, scratch: &scratch)
            return try remember(value, ref, contentBytes: contentBytes, at: offset)
        default:
            return Decoded(value: try trailer.scalar(bytes, marker, at: offset, scratch: &scratch).value)
        }
    }

    private mutating func remember(
        _ value: Plist, _ ref: Int, contentBytes: Int, at offset: Int
    ) throws(PlistError) -> Decoded {
        var decoded = Decoded(value: value)
        try budget.add(contentBytes: contentBytes, to: &decoded.weight, at: offset)
        return finish(decoded, ref, isShared: slots[ref] == ObjectSlot.shared)
    }

    /// Marks `ref` as a container being decoded, after checking the depth; returns whether it
    /// is shared.
    private mutating func enter(_ ref: Int, at offset: Int, depth: Int) throws(PlistError) -> Bool {
        try budget.enter(depth: depth, at: offset)
        let isShared = slots[ref] == ObjectSlot.shared
        slots[ref] = ObjectSlot.inProgress
        return isShared
    }

    /// Adds a child's weight, height and content to its container's, enforcing the limits.
    private func add(_ child: Decoded, to total: inout Decoded, at offset: Int) throws(PlistError) {
        try budget.add(child.weight, to: &total.weight, at: offset)
        total.height = max(total.height, child.height + 1)
    }

    /// Remembers a shared object; an object referenced once is not met again (invariant of
    /// `countReferences`), so it is only marked as no longer in progress.
    private mutating func finish(_ decoded: Decoded, _ ref: Int, isShared: Bool) -> Decoded {
        guard isShared else {
            slots[ref] = ObjectSlot.referencedOnce
            return decoded
        }
        memo.append(decoded)
        slots[ref] = UInt32(memo.count)
        return decoded
    }

    /// Whether object `ref` may be met again: referenced more than once (or, reading part of a
    /// file, not counted).
    private func mayMeetAgain(_ ref: Int) -> Bool { slots[ref] != ObjectSlot.referencedOnce }

    private mutating func array(
        _ bytes: Span<UInt8>, _ ref: Int, _ marker: UInt8, at offset: Int, depth: Int
    ) throws(PlistError) -> Decoded {
        let isShared = try enter(ref, at: offset, depth: depth)
        let (count, start) = try trailer.length(bytes, marker, at: offset, unit: trailer.referenceSize)
        var total = Decoded(value: .bool(false), height: 1)
        var elements: [Plist] = []
        elements.reserveCapacity(min(count, budget.maxObjects))
        var position = start
        for _ in 0..<count {
            let child = try object(bytes, try trailer.reference(bytes, at: position), depth: depth + 1)
            try add(child, to: &total, at: offset)
            elements.append(child.value)
            position += trailer.referenceSize
        }
        total.value = .array(elements)
        return finish(total, ref, isShared: isShared)
    }

    private mutating func dictionary(
        _ bytes: Span<UInt8>, _ ref: Int, _ marker: UInt8, at offset: Int, depth: Int
    ) throws(PlistError) -> Decoded {
        let isShared = try enter(ref, at: offset, depth: depth)
        let (count, start) = try trailer.length(bytes, marker, at: offset, unit: 2 * trailer.referenceSize)
        var total = Decoded(value: .bool(false), height: 1)
        // Another dictionary can have these key references only if its first key is shared.
        let firstKey = count > 0 ? try trailer.reference(bytes, at: start) : nil
        let keysHash = firstKey.map(mayMeetAgain) == true ? keyReferencesHash(bytes, start: start, count: count) : nil
        if let keysHash, let keySet = keySets[keysHash], keySet.keys.count == count,
            sameReferences(bytes, keySet.start, start, count: count)
        {
            let values = try values(sharingKeys: count, bytes, start: start, at: offset, depth: depth, &total)
            total.value = .dictionary(PlistDictionary(keys: keySet.keys, values: values))
            return finish(total, ref, isShared: isShared)
        }
        var keys: [String] = []
        keys.reserveCapacity(min(count, budget.maxObjects))
        var values: [Plist] = []
        values.reserveCapacity(min(count, budget.maxObjects))
        var keyPosition = start
        var valuePosition = start + count * trailer.referenceSize
        for _ in 0..<count {
            let keyRef = try trailer.reference(bytes, at: keyPosition)
            let keyOffset = try objectOffset(bytes, keyRef)
            let keyMarker = bytes[keyOffset]
            guard keyMarker >> 4 == 0x5 || keyMarker >> 4 == 0x6 else {
                throw PlistError(.nonStringKey(marker: keyMarker), at: keyOffset)
            }
            let decodedKey = try object(bytes, keyRef, depth: depth + 1)
            guard case .string(let key) = decodedKey.value else {
                preconditionFailure("a 0x5X or 0x6X object decodes to a string")
            }
            try budget.add(contentBytes: decodedKey.weight.contentBytes, to: &total.weight, at: offset)
            let child = try object(bytes, try trailer.reference(bytes, at: valuePosition), depth: depth + 1)
            try add(child, to: &total, at: offset)
            keys.append(key)
            values.append(child.value)
            keyPosition += trailer.referenceSize
            valuePosition += trailer.referenceSize
        }
        if let unique = DictionaryKeys.checking(keys) {
            if let keysHash, keySets[keysHash] == nil { keySets[keysHash] = KeySet(start: start, keys: unique) }
            total.value = .dictionary(PlistDictionary(keys: unique, values: values))
        } else {
            // A later value for a repeated key replaces the earlier one; the key keeps its first
            // position. Keys are the same key when their scalars are (CoreFoundation's rule).
            total.value = .dictionary(PlistDictionary(readingKeys: keys, values: values))
        }
        return finish(total, ref, isShared: isShared)
    }

    /// The values of a dictionary whose key references (at `start`) are those of a dictionary
    /// decoded before with distinct string keys, whose keys it shares: only the values are
    /// decoded. Each key is still counted against the budget, in the same order as a dictionary
    /// decoded on its own.
    private mutating func values(
        sharingKeys count: Int, _ bytes: Span<UInt8>, start: Int, at offset: Int, depth: Int, _ total: inout Decoded
    ) throws(PlistError) -> [Plist] {
        let referenceSize = trailer.referenceSize
        var keyPosition = start
        var valuePosition = start + count * referenceSize
        var values: [Plist] = []
        values.reserveCapacity(count)
        for _ in 0..<count {
            let key = try object(bytes, try trailer.reference(bytes, at: keyPosition), depth: depth + 1)
            try budget.add(contentBytes: key.weight.contentBytes, to: &total.weight, at: offset)
            let child = try object(bytes, try trailer.reference(bytes, at: valuePosition), depth: depth + 1)
            try add(child, to: &total, at: offset)
            values.append(child.value)
            keyPosition += referenceSize
            valuePosition += referenceSize
        }
        return values
    }

    /// A hash of the `count` key references at `start`.
    private func keyReferencesHash(_ bytes: Span<UInt8>, start: Int, count: Int) -> Int {
        var hasher = Hasher()
        hasher.combine(count)
        var position = start
        for _ in 0..<count {
            hasher.combine(readUInt(bytes, at: position, width: trailer.referenceSize))
            position += trailer.referenceSize
        }
        return hasher.finalize()
    }

    /// Whether the `count` references at `first` and at `second` are the same.
    private func sameReferences(_ bytes: Span<UInt8>, _ first: Int, _ second: Int, count: Int) -> Bool {
        for index in 0..<count * trailer.referenceSize where bytes[first + index] != bytes[second + index] {
            return false
        }
        return true
    }
}
