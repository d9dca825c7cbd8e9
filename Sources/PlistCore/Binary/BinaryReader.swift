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
        let layout = try BinaryLayout(bytes, maxObjects: options.maxObjects)
        var decoder = ObjectDecoder(
            layout: layout, options: options, slots: CountedSlots(layout: layout), mode: BuildingValues())
        decoder.countReferences(bytes)
        return try decoder.object(bytes, layout.topObject, depth: 0).value
    }

    /// Reads everything `read` reads, with the same checks, limits and errors, without building
    /// any value: memory follows the number of objects (4 bytes each) and the shared ones, not
    /// the values. `didRead` is told where each object read starts and about how many bytes
    /// it takes, for a reader of a mapped file that drops the pages it has read
    /// (`BinaryPlistFile`).
    /// - Returns: what is known of each object: which are referenced more than once.
    static func check(
        _ bytes: Span<UInt8>, _ layout: BinaryLayout, options: PlistReadOptions,
        didRead: ((_ offset: Int, _ byteCount: Int) -> Void)? = nil
    ) throws(PlistError) -> CountedSlots {
        var decoder = ObjectDecoder(
            layout: layout, options: options, slots: CountedSlots(layout: layout),
            mode: CheckingObjects(didRead: didRead))
        decoder.countReferences(bytes)
        _ = try decoder.object(bytes, layout.topObject, depth: 0)
        return decoder.slots
    }
}

struct Decoded {
    var value: Plist
    /// How many values this one stands for when expanded (itself and everything inside it), and
    /// how many bytes of string and data content.
    var weight = ReadBudget.Weight(objects: 1)
    /// How many levels of containers it holds (0 for scalars).
    var height = 0

    /// The value of what a decoder that builds no values (`CheckingObjects`) decodes.
    static let placeholder = Plist.bool(false)

    /// The value, moved out rather than copied (a copy of a string or container costs a
    /// retain, and destroying this a release); what is left is `placeholder`.
    @inline(__always)
    mutating func takeValue() -> Plist {
        var taken = Plist.bool(false)
        swap(&taken, &value)
        return taken
    }
}

/// The keys of a dictionary decoded with distinct string keys, which a later dictionary with the
/// same key references shares (`ObjectDecoder.keySets`).
struct KeySet {
    /// The hash of its key references (`BinaryLayout.referencesHash`).
    var hash: Int
    /// Where its key references start in the file.
    var start: Int
    var keys: DictionaryKeys
}

/// The `KeySet`s of a read, by the hash of their key references, the first of each hash kept.
/// A `HashSlots` table with no slots until one is kept: a `Dictionary` of them took about
/// 0.9 M instructions at its first use in a process (the runtime searching the binary's protocol
/// conformances for its key's `Hashable`), more than reading a 2 KB file.
struct KeySets {
    private var table: HashSlots<KeySet?>?

    /// The set kept for `hash`, if any.
    subscript(hash: Int) -> KeySet? {
        guard let table else { return nil }
        return table[table.place(of: hash) { $0?.hash == hash }]
    }

    /// Keeps `keySet` unless a set with its hash is kept.
    mutating func keepFirst(_ keySet: KeySet) {
        if table == nil { table = HashSlots(capacity: 8) }
        let place = table!.place(of: keySet.hash) { $0?.hash == keySet.hash }
        guard table![place] == nil else { return }
        table!.fill(place, with: keySet) { $0!.hash }
    }
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
    subscript(_ ref: Int) -> UInt32 { get set }
}

/// Slots for reading a whole file: one per object, filled by `ObjectDecoder.countReferences`,
/// so that only objects referenced more than once are remembered.
struct CountedSlots: ObjectSlots {
    private var slots: [UInt32]

    init(layout: BinaryLayout) {
        slots = Array(largeRepeating: ObjectSlot.unreferenced, count: layout.objectCount)
    }

    subscript(_ ref: Int) -> UInt32 {
        get { slots[ref] }
        set { slots[ref] = newValue }
    }

    /// Counts a reference more (up to "more than once") to each object that the `count`
    /// references of `width` bytes at `start` name; a reference past the last object is left
    /// for the walk to report.
    @inline(__always)
    mutating func count(_ bytes: Span<UInt8>, references count: Int, at start: Int, width: Int) {
        var counts = slots.mutableSpan
        var position = start
        for _ in 0..<count {
            let ref = readUIntInWord(bytes, at: position, width: width)
            if ref < UInt64(counts.count) {
                let slot = counts[Int(ref)]
                counts[Int(ref)] = slot == ObjectSlot.unreferenced ? ObjectSlot.referencedOnce : ObjectSlot.shared
            }
            position += width
        }
    }

    /// Whether object `ref`, once decoded, is referenced more than once (or is the top object
    /// and referenced again): a walk meets it again.
    func isShared(_ ref: Int) -> Bool {
        let slot = slots[ref]
        return slot != ObjectSlot.referencedOnce && slot != ObjectSlot.unreferenced
    }
}

/// Slots for reading part of a file (`BinaryPlistFile`): only the objects met are kept, and
/// every one counts as shared (references were not counted), so memory follows what is read.
struct TouchedSlots: ObjectSlots {
    private var slots: [Int: UInt32] = [:]

    subscript(_ ref: Int) -> UInt32 {
        get { slots[ref, default: ObjectSlot.shared] }
        set { slots[ref] = newValue }
    }
}

/// What an `ObjectDecoder` makes of the objects it walks. The walk, and with it every check of
/// references, cycles, depth, the read budget and dictionary keys, is the same whatever the
/// mode: a mode only decides what is built, and how much of each scalar is read.
protocol DecodingMode {
    /// Whether `Plist` values are built; else every `Decoded.value` is `Decoded.placeholder`.
    static var buildsValues: Bool { get }
    /// Whether every scalar is read in full (its marker, text and number checked as the tree
    /// reader reads them); else only the length of strings and data is read, for the content
    /// it counts, and a key that is no string is left for a later reader to report.
    static var checksScalars: Bool { get }
    /// Called once for each dictionary walked, with where its key references start.
    mutating func dictionary(_ bytes: Span<UInt8>, _ layout: BinaryLayout, _ ref: Int, start: Int, count: Int)
    /// Called after each object is read, with where it starts and about how many bytes it took.
    mutating func didRead(at offset: Int, _ byteCount: Int)
}

/// The tree reader's mode: every value built, every scalar read.
struct BuildingValues: DecodingMode {
    static var buildsValues: Bool { true }
    static var checksScalars: Bool { true }
    @inline(__always)
    mutating func dictionary(_ bytes: Span<UInt8>, _ layout: BinaryLayout, _ ref: Int, start: Int, count: Int) {}
    @inline(__always) mutating func didRead(at offset: Int, _ byteCount: Int) {}
}

/// The checker's mode (`BinaryReader.check`): every scalar read and checked, nothing built.
struct CheckingObjects: DecodingMode {
    static var buildsValues: Bool { false }
    static var checksScalars: Bool { true }
    let didReadBytes: ((_ offset: Int, _ byteCount: Int) -> Void)?

    init(didRead: ((_ offset: Int, _ byteCount: Int) -> Void)?) { didReadBytes = didRead }

    @inline(__always)
    mutating func dictionary(_ bytes: Span<UInt8>, _ layout: BinaryLayout, _ ref: Int, start: Int, count: Int) {}
    @inline(__always) mutating func didRead(at offset: Int, _ byteCount: Int) { didReadBytes?(offset, byteCount) }
}

/// Walks the objects of a `bplist00` file from one of them, checking each against the layout
/// and counting them against one `ReadBudget`: the whole file for `BinaryReader`, one subtree
/// for `BinaryPlistFile`. In `BuildingValues` mode it decodes them into `Plist` values.
///
/// The one walk of every binary reader: the tree reader, the checker (`plistconv lint
/// --quick`, and the streaming XML writer before it writes), the lazy reader's values and the
/// Codable decoder's weighing all run it, so they check the same things the same way.
/// Invariants: a container met again while it is being walked is a cycle; containers nest at
/// most `maxDepth` deep, counted from where the walk starts, a shared one at its deepest use;
/// values and content count at every use of a shared object (its weight, remembered); every
/// value of a dictionary is read, the one a repeated key replaces included.
///
/// Its constraints are on the extension that holds its methods, not on the type: destroying a
/// decoder instantiates the type's metadata, and with constraints on the type that searched the
/// binary's protocol conformances, twice, at the first read in a process (about 0.45 M
/// instructions, more than reading a 2 KB file).
struct ObjectDecoder<Slots, Mode> {
    let layout: BinaryLayout
    let budget: ReadBudget
    /// What is known of each object (see `ObjectSlots`). Only shared objects are remembered,
    /// so memory follows what the file really shares.
    var slots: Slots
    var mode: Mode
    var memo: [Decoded] = []
    /// Reused buffer for transcoding UTF-16 strings.
    var scratch: [UInt8] = []
    /// Dictionaries decoded with distinct keys, by a hash of their key references: a later
    /// dictionary with the same key references takes its keys from the first one
    /// (`sharingKeys`), so the many dictionaries of one shape keep one copy of their keys.
    var keySets = KeySets()
}

extension ObjectDecoder where Slots: ObjectSlots, Mode: DecodingMode {
    init(layout: BinaryLayout, options: PlistReadOptions, slots: Slots, mode: Mode) {
        self.layout = layout
        budget = ReadBudget(options)
        self.slots = slots
        self.mode = mode
    }

    /// Counts the references to each object (up to "more than once"), reading every container
    /// whose length is valid; a container whose length is not is left to fail when decoded.
    mutating func countReferences(_ bytes: Span<UInt8>) where Slots == CountedSlots {
        slots[layout.topObject] = ObjectSlot.referencedOnce
        // One loop per common reference width, as `BinaryLayout.validateOffsets` reads offsets.
        switch layout.referenceSize {
        case 1: countReferences(bytes, width: 1)
        case 2: countReferences(bytes, width: 2)
        default: countReferences(bytes, width: layout.referenceSize)
        }
    }

    @inline(__always)
    private mutating func countReferences(_ bytes: Span<UInt8>, width: Int) where Slots == CountedSlots {
        for object in 0..<layout.objectCount {
            let offset = layout.offset(of: object, in: bytes)
            let marker = bytes[offset]
            mode.didRead(at: offset, 1)
            let isDictionary = BinaryMarker.Kind(marker) == .dictionary
            guard isDictionary || BinaryMarker.Kind(marker) == .array || BinaryMarker.Kind(marker) == .set,
                let (count, start) = try? layout.length(bytes, marker, at: offset, unit: (isDictionary ? 2 : 1) * width)
            else { continue }
            slots.count(bytes, references: isDictionary ? 2 * count : count, at: start, width: width)
        }
    }

    /// Decodes object `ref` (already checked to be below the object count), found inside
    /// `depth` containers.
    mutating func object(_ bytes: Span<UInt8>, _ ref: Int, depth: Int) throws(PlistError) -> Decoded {
        if let index = try remembered(bytes, ref, depth: depth) { return memo[index] }
        let offset = layout.offset(of: ref, in: bytes)
        let marker = bytes[offset]
        switch BinaryMarker.Kind(marker) {
        case .array, .set:
            return try array(bytes, ref, marker, at: offset, depth: depth)
        case .dictionary:
            return try dictionary(bytes, ref, marker, at: offset, depth: depth)
        case .data, .asciiString, .utf16String:
            let (value, contentBytes) = try scalar(bytes, marker, at: offset)
            return try remember(value, ref, contentBytes: contentBytes, at: offset)
        default:
            return Decoded(value: try scalar(bytes, marker, at: offset).value)
        }
    }

    /// Where object `ref`, found inside `depth` containers, is in the memo if it was decoded
    /// before, after checking the depth its deepest container reaches; `nil` if it was not.
    /// - Throws: `.cycle` for a container being decoded, or `.tooDeep`.
    @inline(__always)
    private func remembered(_ bytes: Span<UInt8>, _ ref: Int, depth: Int) throws(PlistError) -> Int? {
        let slot = slots[ref]
        if slot == ObjectSlot.inProgress {
            throw PlistError(.cycle(object: ref), at: layout.offset(of: ref, in: bytes))
        }
        guard slot != ObjectSlot.unreferenced, slot < ObjectSlot.referencedOnce else { return nil }
        let index = Int(slot - 1)
        // Its deepest container is `height - 1` levels inside it.
        try budget.enter(depth: depth + memo[index].height - 1, at: layout.offset(of: ref, in: bytes))
        return index
    }

    /// The scalar at `offset`, as the mode reads it, and its bytes of content.
    @inline(__always)
    private mutating func scalar(
        _ bytes: Span<UInt8>, _ marker: UInt8, at offset: Int
    ) throws(PlistError) -> (value: Plist, contentBytes: Int) {
        if Mode.buildsValues { return try layout.scalar(bytes, marker, at: offset, scratch: &scratch) }
        let contentBytes =
            Mode.checksScalars
            ? try layout.checkScalar(bytes, marker, at: offset, scratch: &scratch)
            : try layout.scalarContentBytes(bytes, marker, at: offset)
        mode.didRead(at: offset, contentBytes + 9)
        return (Decoded.placeholder, contentBytes)
    }

    @inline(__always)
    private mutating func remember(
        _ value: consuming Plist, _ ref: Int, contentBytes: Int, at offset: Int
    ) throws(PlistError) -> Decoded {
        var weight = ReadBudget.Weight(objects: 1)
        try budget.add(contentBytes: contentBytes, to: &weight, at: offset)
        return finish(Decoded(value: value, weight: weight), ref, isShared: slots[ref] == ObjectSlot.shared)
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
    @inline(__always)
    private func add(_ child: Decoded, to total: inout Decoded, at offset: Int) throws(PlistError) {
        try budget.add(child.weight, to: &total.weight, at: offset)
        total.height = max(total.height, child.height + 1)
    }

    /// Remembers a shared object; an object referenced once is not met again (invariant of
    /// `countReferences`), so it is only marked as no longer in progress.
    /// Returns `decoded`, consumed rather than copied: most objects are not shared.
    @inline(__always)
    private mutating func finish(_ decoded: consuming Decoded, _ ref: Int, isShared: Bool) -> Decoded {
        guard isShared else {
            slots[ref] = ObjectSlot.referencedOnce
            return decoded
        }
        memo.append(copy decoded)
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
        let (count, start) = try layout.length(bytes, marker, at: offset, unit: layout.referenceSize)
        mode.didRead(at: offset, count * layout.referenceSize + 9)
        var total = Decoded(value: Decoded.placeholder, height: 1)
        var elements: [Plist] = []
        if Mode.buildsValues { elements.reserveCapacity(min(count, budget.maxObjects)) }
        var position = start
        for _ in 0..<count {
            var child = try object(bytes, try layout.reference(bytes, at: position), depth: depth + 1)
            try add(child, to: &total, at: offset)
            if Mode.buildsValues { elements.append(child.takeValue()) }
            position += layout.referenceSize
        }
        if Mode.buildsValues { total.value = .array(elements) }
        return finish(total, ref, isShared: isShared)
    }

    private mutating func dictionary(
        _ bytes: Span<UInt8>, _ ref: Int, _ marker: UInt8, at offset: Int, depth: Int
    ) throws(PlistError) -> Decoded {
        let isShared = try enter(ref, at: offset, depth: depth)
        let (count, start) = try layout.length(bytes, marker, at: offset, unit: 2 * layout.referenceSize)
        mode.didRead(at: offset, 2 * count * layout.referenceSize + 9)
        mode.dictionary(bytes, layout, ref, start: start, count: count)
        var total = Decoded(value: Decoded.placeholder, height: 1)
        var keysHash: Int?
        if Mode.buildsValues {
            // Another dictionary can have these key references only if its first key is shared.
            let firstKey = count > 0 ? try layout.reference(bytes, at: start) : nil
            keysHash =
                firstKey.map(mayMeetAgain) == true ? layout.referencesHash(bytes, start: start, count: count) : nil
            if let keysHash, let keySet = keySets[keysHash], keySet.keys.count == count,
                layout.sameReferences(bytes, keySet.start, start, count: count)
            {
                let values = try values(sharingKeys: count, bytes, start: start, at: offset, depth: depth, &total)
                total.value = .dictionary(PlistDictionary(keys: keySet.keys, values: values))
                return finish(total, ref, isShared: isShared)
            }
        }
        var keys: [String] = []
        var values: [Plist] = []
        if Mode.buildsValues {
            keys.reserveCapacity(min(count, budget.maxObjects))
            values.reserveCapacity(min(count, budget.maxObjects))
        }
        var keyPosition = start
        var valuePosition = start + count * layout.referenceSize
        for _ in 0..<count {
            let keyRef = try layout.reference(bytes, at: keyPosition)
            let keyOffset = layout.offset(of: keyRef, in: bytes)
            let keyMarker = bytes[keyOffset]
            if BinaryMarker.Kind(keyMarker) == .asciiString || BinaryMarker.Kind(keyMarker) == .utf16String {
                var decodedKey = try object(bytes, keyRef, depth: depth + 1)
                try budget.add(contentBytes: decodedKey.weight.contentBytes, to: &total.weight, at: offset)
                if Mode.buildsValues {
                    guard case .string(let key) = decodedKey.takeValue() else {
                        preconditionFailure("a 0x5X or 0x6X object decodes to a string")
                    }
                    keys.append(key)
                }
            } else if Mode.checksScalars {
                throw PlistError(.nonStringKey(marker: keyMarker), at: keyOffset)
            }
            // Every value is read, a repeated key's replaced one included.
            var child = try object(bytes, try layout.reference(bytes, at: valuePosition), depth: depth + 1)
            try add(child, to: &total, at: offset)
            if Mode.buildsValues { values.append(child.takeValue()) }
            keyPosition += layout.referenceSize
            valuePosition += layout.referenceSize
        }
        guard Mode.buildsValues else { return finish(total, ref, isShared: isShared) }
        if let unique = DictionaryKeys.checking(keys) {
            if let keysHash { keySets.keepFirst(KeySet(hash: keysHash, start: start, keys: unique)) }
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
        let referenceSize = layout.referenceSize
        var keyPosition = start
        var valuePosition = start + count * referenceSize
        var values: [Plist] = []
        values.reserveCapacity(count)
        for _ in 0..<count {
            // The keys were decoded with the first dictionary: each is counted from the memo,
            // where `object` would copy it from.
            let keyRef = try layout.reference(bytes, at: keyPosition)
            let keyContentBytes =
                if let index = try remembered(bytes, keyRef, depth: depth + 1) {
                    memo[index].weight.contentBytes
                } else {
                    try object(bytes, keyRef, depth: depth + 1).weight.contentBytes
                }
            try budget.add(contentBytes: keyContentBytes, to: &total.weight, at: offset)
            var child = try object(bytes, try layout.reference(bytes, at: valuePosition), depth: depth + 1)
            try add(child, to: &total, at: offset)
            values.append(child.takeValue())
            keyPosition += referenceSize
            valuePosition += referenceSize
        }
        return values
    }
}
