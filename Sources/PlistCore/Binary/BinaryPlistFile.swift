import Synchronization

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A binary property list (`bplist00`) read lazily: only the objects on the way to a value,
/// and the value itself, are read, so a lookup in a file of gigabytes costs what it touches.
///
/// Opening reads the 32-byte trailer and checks every entry of the offset table, in one pass
/// over the table (as every binary reader does). Every later read trusts nothing either: each
/// reference and length it uses is checked before use, and nothing outside the bytes is ever
/// read, whatever they say. A value is read with the limits of `PlistReadOptions`, as
/// `Plist(binary:)` reads a file: containers at most `maxDepth` deep (counted from the top of
/// the file), and the value's own size (`maxObjects`, `maxContentBytes`), counting shared
/// references at every use. Errors are the whole-file reader's, with their byte offsets.
///
/// Unlike `Plist(binary:)`, problems in objects that are not read are not found: use `check()`
/// or `Plist(binary:)` to check a whole file. A file of more objects than `maxObjects` opens,
/// since its size costs nothing here.
///
/// PlistKit's `BinaryPlistFile(contentsOf:)` maps a file into memory; see the "Large files"
/// article for what happens when another process truncates a mapped file.
public final class BinaryPlistFile: Sendable {
    let bytes: Data
    let layout: BinaryLayout
    let options: PlistReadOptions
    private let maxIndexedEntries: Int
    private let indexes = Mutex(DictionaryIndexes())
    /// The last path located and the object it led to: a command asks for a value's type and
    /// then for the value (`plistconv extract ... raw`), and a second search of a dictionary
    /// without an index reads its keys again.
    private let lastPlace = Mutex<(steps: [PlistPathStep], plutil: Bool, place: Place)?>(nil)
    /// Drops the pages of `bytes` that are in memory when many are, for bytes mapped from a file
    /// (which the system reads again when they are touched): opening, a long search of a
    /// dictionary's keys and a walk of the whole file (`check`, `writeXML`) call it as they go
    /// (`PageRelease`), so that resident memory follows what was read lately, not the file.
    let releasePages: (@Sendable (Data) -> Void)?

    /// Dictionaries with fewer entries are always searched key by key.
    static let indexThreshold = 32

    /// Opens a binary property list.
    /// - Parameters:
    ///   - bytes: the file's bytes (which may be a memory-mapped file).
    ///   - options: the limits for each value read.
    ///   - maxIndexedEntries: how many dictionary entries, in all, may be indexed by key (8 bytes
    ///     each). A dictionary of 32 entries or more searched a second time gets an index, so
    ///     that later lookups in it take constant time instead of reading its keys; 0 turns
    ///     indexes off.
    /// - Throws: `PlistError` for a header, trailer or offset-table entry that is not valid.
    public convenience init(bytes: Data, options: PlistReadOptions = .init(), maxIndexedEntries: Int = 1 << 22)
        throws(PlistError)
    {
        try self.init(bytes: bytes, options: options, maxIndexedEntries: maxIndexedEntries, releasePages: nil)
    }

    /// Opens `bytes`; `releasePages` drops their resident pages (see the property).
    package init(
        bytes: Data, options: PlistReadOptions, maxIndexedEntries: Int, releasePages: (@Sendable (Data) -> Void)?
    ) throws(PlistError) {
        self.bytes = bytes
        let storage = bytes
        let didRead = releasePages.map { release in { release(storage) } }
        layout = try BinaryLayout(bytes.span, maxObjects: .max, didRead: didRead)
        self.options = options
        self.maxIndexedEntries = maxIndexedEntries
        self.releasePages = releasePages
        releasePages?(bytes)
    }

    /// Opens the binary property list in `bytes` (copied).
    /// - Throws: `PlistError` for a header, trailer or offset-table entry that is not valid.
    public convenience init(bytes: [UInt8], options: PlistReadOptions = .init()) throws(PlistError) {
        try self.init(bytes: Data(bytes), options: options)
    }

    /// The value at `path` (plutil's key path: in an array a component is an index), read with
    /// everything inside it.
    /// - Throws: `PlistError`: `.noValueAtKeyPath` or `.notAContainer` when the path leads
    ///   nowhere, or the reader's error, with its byte offset, for what is read.
    public func value(at path: PlistKeyPath = PlistKeyPath(components: [])) throws(PlistError) -> Plist {
        try value(at: Self.steps(path), plutil: true)
    }

    /// The value at the typed path `steps`, read with everything inside it.
    /// - Throws: as `value(at:)` with a `PlistKeyPath`.
    public func value(at steps: [PlistPathStep]) throws(PlistError) -> Plist {
        try value(at: steps, plutil: false)
    }

    /// The keys of the dictionary at `path`, in file order (a repeated key once, at its first
    /// place, as `Plist(binary:)` keeps it), without reading its values.
    /// - Throws: `.unexpectedType` when the value there is not a dictionary, else as `value(at:)`.
    public func keys(at path: PlistKeyPath = PlistKeyPath(components: [])) throws(PlistError) -> [String] {
        try keys(at: Self.steps(path), plutil: true)
    }

    /// The keys of the dictionary at the typed path `steps`, as `keys(at:)` with a `PlistKeyPath`.
    /// - Throws: as `keys(at:)` with a `PlistKeyPath`.
    public func keys(at steps: [PlistPathStep]) throws(PlistError) -> [String] {
        try keys(at: steps, plutil: false)
    }

    /// How many elements the array, or entries the dictionary, at `path` has, without reading
    /// them (a dictionary's keys are read, to count a repeated key once).
    /// - Throws: `.notAContainer` when the value there is neither, else as `value(at:)`.
    public func count(at path: PlistKeyPath = PlistKeyPath(components: [])) throws(PlistError) -> Int {
        try count(at: Self.steps(path), plutil: true)
    }

    /// How many elements or entries the container at the typed path `steps` has.
    /// - Throws: as `count(at:)` with a `PlistKeyPath`.
    public func count(at steps: [PlistPathStep]) throws(PlistError) -> Int {
        try count(at: steps, plutil: false)
    }

    /// The type of the value at `path`, without reading what a container holds.
    /// - Throws: as `value(at:)`.
    public func type(at path: PlistKeyPath = PlistKeyPath(components: [])) throws(PlistError) -> PlistType {
        let storage = bytes
        let span = storage.span
        let place = try locate(span, Self.steps(path), plutil: true)
        switch BinaryMarker.Kind(place.marker) {
        case .array, .set:
            _ = try layout.length(span, place.marker, at: place.offset, unit: layout.referenceSize)
            return .array
        case .dictionary:
            _ = try layout.length(span, place.marker, at: place.offset, unit: 2 * layout.referenceSize)
            return .dictionary
        default:
            var scratch: [UInt8] = []
            return try layout.scalar(span, place.marker, at: place.offset, scratch: &scratch).value.type
        }
    }

    // MARK: - Reading

    private func value(at steps: [PlistPathStep], plutil: Bool) throws(PlistError) -> Plist {
        let storage = bytes
        let span = storage.span
        let place = try locate(span, steps, plutil: plutil)
        var decoder = ObjectDecoder(layout: layout, options: options, slots: TouchedSlots(), mode: BuildingValues())
        return try decoder.object(span, place.ref, depth: steps.count).value
    }

    private func keys(at steps: [PlistPathStep], plutil: Bool) throws(PlistError) -> [String] {
        let storage = bytes
        let span = storage.span
        let place = try locate(span, steps, plutil: plutil)
        guard BinaryMarker.Kind(place.marker) == .dictionary else {
            throw PlistError(
                .unexpectedType(
                    keyPath: Self.keyPath(steps).description, expected: "dictionary",
                    found: try typeName(span, place)),
                at: 0)
        }
        var budget = ReadBudget(options)
        try budget.enter(depth: steps.count, at: place.offset)
        let (count, start) = try layout.length(span, place.marker, at: place.offset, unit: 2 * layout.referenceSize)
        let keys = DictionaryKeys(minimumCapacity: count)
        var scratch: [UInt8] = []
        var pages = PageRelease(file: self)
        for index in 0..<count {
            let (key, keyOffset, contentBytes) = try layout.key(span, entry: index, start: start, scratch: &scratch)
            try budget.count(contentBytes: contentBytes, at: keyOffset)
            keys.append(key)
            pages.didRead(at: keyOffset, contentBytes + 9)
        }
        return keys.keys
    }

    private func count(at steps: [PlistPathStep], plutil: Bool) throws(PlistError) -> Int {
        let storage = bytes
        let span = storage.span
        let place = try locate(span, steps, plutil: plutil)
        switch BinaryMarker.Kind(place.marker) {
        case .array, .set:
            try ReadBudget(options).enter(depth: steps.count, at: place.offset)
            return try layout.length(span, place.marker, at: place.offset, unit: layout.referenceSize).count
        case .dictionary:
            return try keys(at: steps, plutil: plutil).count
        default:
            throw PlistError(
                .notAContainer(keyPath: Self.keyPath(steps).description, type: try typeName(span, place)), at: 0)
        }
    }

    /// An object found at the end of a path.
    struct Place {
        var ref: Int
        var offset: Int
        var marker: UInt8
    }

    /// The object at the end of `steps`. With `plutil`, a key in an array is read as an index.
    func locate(_ span: Span<UInt8>, _ steps: [PlistPathStep], plutil: Bool) throws(PlistError) -> Place {
        if let last = lastPlace.withLock({ $0 }), last.plutil == plutil, Self.sameBytes(last.steps, steps) {
            return last.place
        }
        let place = try search(span, steps, plutil: plutil)
        lastPlace.withLock { $0 = (steps, plutil, place) }
        return place
    }

    /// The object at the end of `steps`, found by reading the containers on the way.
    private func search(_ span: Span<UInt8>, _ steps: [PlistPathStep], plutil: Bool) throws(PlistError) -> Place {
        let budget = ReadBudget(options)
        var ref = layout.topObject
        var offset = layout.offset(of: ref, in: span)
        // The containers the path went through: meeting one again is a cycle.
        var passed: Set<Int> = []
        for (depth, step) in steps.enumerated() {
            let marker = span[offset]
            let next: Int?
            switch BinaryMarker.Kind(marker) {
            case .array, .set:
                try budget.enter(depth: depth, at: offset)
                let (count, start) = try layout.length(span, marker, at: offset, unit: layout.referenceSize)
                let index: Int? =
                    switch step {
                    case .index(let index): index
                    case .key(let key): plutil ? Int(key) : nil
                    }
                if let index, index >= 0, index < count {
                    next = try layout.reference(span, at: start + index * layout.referenceSize)
                } else {
                    next = nil
                }
            case .dictionary:
                try budget.enter(depth: depth, at: offset)
                if case .key(let key) = step {
                    next = try lookUp(key, span, ref, marker, at: offset)
                } else {
                    next = nil
                }
            default:
                let type = try typeName(span, Place(ref: ref, offset: offset, marker: marker))
                throw PlistError(
                    .notAContainer(keyPath: Self.keyPath(steps.prefix(depth)).description, type: type), at: 0)
            }
            guard let next else {
                throw PlistError(.noValueAtKeyPath(Self.keyPath(steps.prefix(depth + 1)).description), at: 0)
            }
            passed.insert(ref)
            let nextOffset = layout.offset(of: next, in: span)
            guard !passed.contains(next) else { throw PlistError(.cycle(object: next), at: nextOffset) }
            ref = next
            offset = nextOffset
        }
        return Place(ref: ref, offset: offset, marker: span[offset])
    }

    /// Whether two paths are the same steps, keys compared by their bytes (keys that `String`
    /// calls equal are different keys in a file).
    private static func sameBytes(_ a: [PlistPathStep], _ b: [PlistPathStep]) -> Bool {
        a.count == b.count
            && zip(a, b).allSatisfy { pair in
                switch pair {
                case (.key(let x), .key(let y)): x.utf8.elementsEqual(y.utf8)
                case (.index(let x), .index(let y)): x == y
                default: false
                }
            }
    }

    /// The type name of the object at `place` (a scalar is read, and must read well).
    private func typeName(_ span: Span<UInt8>, _ place: Place) throws(PlistError) -> String {
        switch BinaryMarker.Kind(place.marker) {
        case .array, .set: return "array"
        case .dictionary: return "dictionary"
        default:
            var scratch: [UInt8] = []
            return try layout.scalar(span, place.marker, at: place.offset, scratch: &scratch).value.typeName
        }
    }

    /// The value of `key` in the dictionary `ref` (marker `marker` at `offset`), or nil. A
    /// repeated key gives its last value, as `Plist(binary:)` keeps it; keys are the same key
    /// when their scalars are.
    private func lookUp(
        _ key: String, _ span: Span<UInt8>, _ ref: Int, _ marker: UInt8, at offset: Int
    ) throws(PlistError) -> Int? {
        let referenceSize = layout.referenceSize
        let (count, start) = try layout.length(span, marker, at: offset, unit: 2 * referenceSize)
        var text = key.utf8Span
        let isASCII = text.isKnownASCII || text.checkForASCII()
        if isASCII, count >= Self.indexThreshold, let table = index(span, ref, count: count, start: start) {
            guard let index = table.find(text.span, span, layout, start: start) else { return nil }
            return try layout.reference(span, at: start + (count + index) * referenceSize)
        }
        var scratch: [UInt8] = []
        // A long search reads a page or more per key: they are dropped as it goes.
        var pages = PageRelease(file: self)
        // A short ASCII key is an ASCII string object whose marker holds its length: a key
        // whose marker says another length is passed over on its marker alone, and one whose
        // marker matches costs a comparison of its bytes (the probe reads no more than that).
        let query = text.span
        let shortMarker: UInt8? =
            isASCII && query.count < Int(BinaryMarker.countFollows)
            ? BinaryMarker.Kind.asciiString.marker(low: UInt8(query.count)) : nil
        // From the end: the last of repeated keys is the one whose value counts.
        for index in stride(from: count - 1, through: 0, by: -1) {
            let keyRef = try layout.reference(span, at: start + index * referenceSize)
            let keyOffset = layout.offset(of: keyRef, in: span)
            pages.didRead(at: keyOffset, 16)
            let marker = span[keyOffset]
            if let shortMarker, BinaryMarker.Kind(marker) == .asciiString,
                BinaryMarker.low(marker) != BinaryMarker.countFollows
            {
                guard marker == shortMarker else { continue }
                let (length, bytesStart) = try layout.length(span, marker, at: keyOffset, unit: 1)
                guard span.extracting(bytesStart..<bytesStart + length).hasSameBytes(as: query) else { continue }
                return try layout.reference(span, at: start + (count + index) * referenceSize)
            }
            let matches =
                switch try layout.keyBytes(span, keyRef, scratch: &scratch) {
                case .inFile(let range): span.extracting(range).hasSameBytes(as: text.span)
                case .inScratch: scratch.span.hasSameBytes(as: text.span)
                }
            if matches { return try layout.reference(span, at: start + (count + index) * referenceSize) }
        }
        return nil
    }

    /// The index of the dictionary `ref`, when it has one or should now get one.
    private func index(_ span: Span<UInt8>, _ ref: Int, count: Int, start: Int) -> BinaryKeyTable? {
        let maxIndexedEntries = maxIndexedEntries
        let decision = indexes.withLock { indexes -> DictionaryIndexes.Decision in
            indexes.decide(ref, count: count, maxIndexedEntries: maxIndexedEntries)
        }
        switch decision {
        case .scan: return nil
        case .use(let table): return table
        case .build:
            let table = BinaryKeyTable(span, layout, count: count, start: start)
            indexes.withLock { $0.store(table, for: ref, count: count) }
            return table
        }
    }

    static func steps(_ path: PlistKeyPath) -> [PlistPathStep] { path.components.map { .key($0) } }

    private static func keyPath(_ steps: some Collection<PlistPathStep>) -> PlistKeyPath {
        PlistKeyPath(
            components: steps.map { step in
                switch step {
                case .key(let key): key
                case .index(let index): String(index)
                }
            })
    }
}

/// Tells a mapped file's `releasePages` about every 1 MiB read, so that resident memory follows
/// what was read lately, not the file (`releasePages` decides whether enough is resident to
/// drop; the hot pages, such as the offset table and shared keys, are read back from the page
/// cache). Each read counts its size and its distance from the previous read, up to a page:
/// the system maps pages around the one it reads in, so scattered small reads make memory
/// resident that their sizes do not show.
struct PageRelease {
    let file: BinaryPlistFile
    var sinceRelease = 0
    /// The end of the last read.
    var mark = 0

    init(file: BinaryPlistFile) { self.file = file }

    mutating func didRead(at offset: Int, _ byteCount: Int) {
        guard file.releasePages != nil else { return }
        sinceRelease += min(abs(offset - mark), 4096) + byteCount
        mark = offset + byteCount
        if sinceRelease >= 1 << 20 { release() }
    }

    mutating func release() {
        sinceRelease = 0
        file.releasePages?(file.bytes)
    }
}

/// The key indexes of a `BinaryPlistFile`'s large dictionaries, and how many entries they hold.
private struct DictionaryIndexes {
    /// Per large dictionary searched once: nothing yet (a single search costs one pass over
    /// the keys; building an index would cost the same pass and more memory).
    var searched: Set<Int> = []
    /// Per dictionary indexed: its table (`nil` when its keys cannot be indexed).
    var tables: [Int: BinaryKeyTable?] = [:]
    var indexedEntries = 0

    enum Decision {
        case scan, build
        case use(BinaryKeyTable)
    }

    mutating func decide(_ ref: Int, count: Int, maxIndexedEntries: Int) -> Decision {
        if let table = tables[ref] { return table.map { .use($0) } ?? .scan }
        guard searched.contains(ref) else {
            searched.insert(ref)
            return .scan
        }
        guard indexedEntries <= maxIndexedEntries - count else { return .scan }
        indexedEntries += count
        tables[ref] = .some(nil)
        return .build
    }

    mutating func store(_ table: BinaryKeyTable?, for ref: Int, count: Int) {
        tables[ref] = table
        if table == nil { indexedEntries -= count }
    }
}
