#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension BinaryPlistFile {
    /// Writes the value at `path` as an XML property list, as it reads it: the bytes that
    /// `value(at: path).xmlBytes(options:)` gives, handed to `write` in chunks of about 1 MiB,
    /// without the value in memory. Memory follows the number of objects (a few bits each), the
    /// depth of the value and its widest dictionary (whose keys are sorted), not its size.
    ///
    /// Before anything is written, the value is read and checked as `value(at:)` reads it (the
    /// whole file for the top value, as `Plist(binary:)` reads it), with the file's read limits
    /// (`PlistReadOptions`): every object, the values a repeated key replaces included, counting
    /// shared references at every use. So a file that does not read, or whose shared references
    /// describe more values than the limits allow, is refused before the first chunk. Writing
    /// can still fail on what the XML writer refuses (`options.maxOutputBytes`,
    /// `options.maxDepth`, a value XML cannot hold, named by its key path as `xmlBytes` names
    /// it) or on what `write` throws: write the chunks to a temporary file (PlistKit's
    /// `writeXML(at:toFile:options:)` does) and drop it when this throws.
    /// - Throws: `PlistError`: the reader's errors for what is read, with their byte offsets;
    ///   `.tooDeep`, `.outputTooLarge`, `.unrepresentable`; or what `write` throws.
    public func writeXML(
        at path: PlistKeyPath = PlistKeyPath(components: []), options: PlistWriteOptions = .init(),
        to write: (_ chunk: [UInt8]) throws(PlistError) -> Void
    ) throws(PlistError) {
        let storage = bytes
        let span = storage.span
        let steps = Self.steps(path)
        let place = try locate(span, steps, plutil: true)
        let shared = try checked(span, from: place.ref, depth: steps.count)
        var streamer = XMLStreamer(
            file: self, shared: shared, sortsKeys: options.sortsKeys,
            text: XMLOutput(options: options, capacity: XMLStreamer.chunkSize + 64 * 1024))
        do throws(PlistError) {
            try streamer.value(span, place.ref, depth: 0, write)
        } catch  where error.code == .unrepresentable {
            throw streamer.withKeyPath(error, span, from: place.ref)
        }
        try write(streamer.text.finish())
    }

    /// Reads everything in the file, as `Plist(binary:)` does (the offset table, and every
    /// object reachable from the top, with the file's read limits), without keeping any of it:
    /// the same walk, with the same checks and errors. Memory follows the number of objects
    /// (4 bytes each) and the depth, not the values. A mapped file's pages are dropped as they
    /// are read.
    /// - Throws: `PlistError`: the error reading the whole file gives (for a file of more objects
    ///   than `maxObjects` with other problems too, possibly another of them), with its byte offset.
    public func check() throws(PlistError) {
        let storage = bytes
        _ = try checked(storage.span, from: layout.topObject, depth: 0)
    }

    /// Reads and checks the value `ref`, found inside `depth` containers, as `value(at:)` reads
    /// it (the top value as `Plist(binary:)` reads the file), without keeping it; returns which
    /// of its objects it meets more than once.
    private func checked(_ span: Span<UInt8>, from ref: Int, depth: Int) throws(PlistError) -> SharedObjects {
        var pages = PageRelease(file: self)
        guard ref == layout.topObject, depth == 0 else {
            var decoder = ObjectDecoder(
                layout: layout, options: options, slots: TouchedSlots(),
                mode: CheckingObjects { pages.didRead(at: $0, $1) })
            _ = try decoder.object(span, ref, depth: depth)
            pages.release()
            return .all
        }
        guard layout.objectCount <= options.maxObjects else {
            throw PlistError(
                .tooManyObjects(limit: options.maxObjects),
                at: span.count - BinaryTrailer.size + BinaryTrailer.Field.objectCount)
        }
        let slots = try BinaryReader.check(span, layout, options: options) { pages.didRead(at: $0, $1) }
        pages.release()
        return .some(SharedObjects.Bits(layout.objectCount) { slots.isShared($0) })
    }
}

/// The objects a walk met more than once, which the XML streamer remembers work for.
private enum SharedObjects {
    /// Every object (a walk of part of the file, whose references were not counted).
    case all
    /// One bit per object.
    case some(Bits)

    struct Bits {
        private var words: [UInt64]

        init(_ count: Int, _ isShared: (Int) -> Bool) {
            words = Array(repeating: 0, count: (count + 63) / 64)
            for index in 0..<count where isShared(index) { words[index / 64] |= 1 << UInt64(index % 64) }
        }

        subscript(_ index: Int) -> Bool { words[index / 64] & 1 << UInt64(index % 64) != 0 }
    }

    func contains(_ ref: Int) -> Bool {
        switch self {
        case .all: true
        case .some(let bits): bits[ref]
        }
    }
}

/// Walks the objects of a binary file depth first and writes each as XML as it meets it, after
/// `BinaryPlistFile.checked` has read them: every read here succeeds (the reads are the checked
/// ones all the same), and only the XML writer's own checks can fail.
private struct XMLStreamer {
    static let chunkSize = 1 << 20

    let file: BinaryPlistFile
    let shared: SharedObjects
    let sortsKeys: Bool
    var text: XMLOutput
    var scratch: [UInt8] = []
    /// The entries of shared dictionaries with repeated keys, found once: writing such a
    /// dictionary costs what its output costs, not its entries each time.
    var resolved: [Int: Entries] = [:]
    /// The keys (distinct) and their order of small dictionaries, by a hash of their key
    /// references: the many dictionaries of one shape (a file's records) read and sort their
    /// keys once, as the tree reader shares their keys.
    var shapes: [Int: Shape] = [:]
    var pages: PageRelease

    /// A dictionary's keys (a repeated key once, at its first place), their values' objects, and
    /// the order to write them in (nil: as they are).
    struct Entries {
        var keys: DictionaryKeys
        var values: [Int]
        var order: [Int]?
    }

    /// The keys of a dictionary with distinct keys, where its key references are, and their order.
    struct Shape {
        var start: Int
        var keys: DictionaryKeys
        var order: [Int]?
    }

    /// Dictionaries of more entries are not remembered by shape, nor more shapes than this.
    static let largestShape = 256
    static let mostShapes = 4096

    var layout: BinaryLayout { file.layout }

    init(file: BinaryPlistFile, shared: SharedObjects, sortsKeys: Bool, text: XMLOutput) {
        self.file = file
        self.shared = shared
        self.sortsKeys = sortsKeys
        self.text = text
        pages = PageRelease(file: file)
    }

    /// Writes object `ref`, indented `depth` tabs.
    mutating func value(
        _ span: Span<UInt8>, _ ref: Int, depth: Int, _ write: (_ chunk: [UInt8]) throws(PlistError) -> Void
    ) throws(PlistError) {
        let offset = layout.offset(of: ref, in: span)
        let marker = span[offset]
        switch BinaryMarker.Kind(marker) {
        case .array, .set:
            let (count, start) = try layout.length(span, marker, at: offset, unit: layout.referenceSize)
            pages.didRead(at: offset, count * layout.referenceSize)
            if try text.open("array", isEmpty: count == 0, depth: depth) {
                for index in 0..<count {
                    let child = try layout.reference(span, at: start + index * layout.referenceSize)
                    try value(span, child, depth: depth + 1, write)
                }
                text.close("array", depth: depth)
            }
        case .dictionary:
            let entries = try self.entries(span, ref, marker, at: offset)
            if try isUIDForm(span, entries) {
                throw PlistError(.unrepresentable(keyPath: "", type: XMLWriter.uidFormProblem, format: "XML"), at: 0)
            }
            if try text.open("dict", isEmpty: entries.keys.count == 0, depth: depth) {
                for position in 0..<entries.keys.count {
                    let index = entries.order?[position] ?? position
                    try text.key(entries.keys[index].utf8.span, depth: depth + 1)
                    try value(span, entries.values[index], depth: depth + 1, write)
                }
                text.close("dict", depth: depth)
            }
        default:
            let (scalar, contentBytes) = try layout.scalar(span, marker, at: offset, scratch: &scratch)
            try text.scalar(scalar, depth: depth)
            pages.didRead(at: offset, contentBytes + 9)
        }
        if text.count >= Self.chunkSize { try write(text.drain()) }
    }

    /// The keys of the dictionary `ref` (marker `marker` at `offset`) and their values'
    /// objects: a repeated key (the same scalars) at its first place with its last value, as
    /// `Plist(binary:)` reads it.
    private mutating func entries(
        _ span: Span<UInt8>, _ ref: Int, _ marker: UInt8, at offset: Int
    ) throws(PlistError) -> Entries {
        if let known = resolved[ref] { return known }
        let referenceSize = layout.referenceSize
        let (count, start) = try layout.length(span, marker, at: offset, unit: 2 * referenceSize)
        pages.didRead(at: offset, 2 * count * referenceSize)
        let shapeHash =
            count > 0 && count <= Self.largestShape ? layout.referencesHash(span, start: start, count: count) : nil
        if let shapeHash, let shape = shapes[shapeHash], shape.keys.count == count,
            layout.sameReferences(span, shape.start, start, count: count)
        {
            var values: [Int] = []
            values.reserveCapacity(count)
            for index in 0..<count {
                values.append(try layout.reference(span, at: start + (count + index) * referenceSize))
            }
            return Entries(keys: shape.keys, values: values, order: shape.order)
        }
        var entries = Entries(keys: DictionaryKeys(minimumCapacity: count), values: [], order: nil)
        entries.values.reserveCapacity(count)
        var repeats = false
        for index in 0..<count {
            let key = try layout.key(span, entry: index, start: start, scratch: &scratch)
            let value = try layout.reference(span, at: start + (count + index) * referenceSize)
            if entries.keys.append(key.key) {
                entries.values.append(value)
            } else if let place = entries.keys.index(of: key.key) {
                entries.values[place] = value
                repeats = true
            }
            pages.didRead(at: key.offset, key.contentBytes + 9)
        }
        if sortsKeys { entries.order = KeyOrder.sortedOrder(entries.keys.keys) }
        if repeats, shared.contains(ref) { resolved[ref] = entries }
        if !repeats, let shapeHash, shapes.count < Self.mostShapes, shapes[shapeHash] == nil {
            shapes[shapeHash] = Shape(start: start, keys: entries.keys, order: entries.order)
        }
        return entries
    }

    /// Whether `entries` are what a UID is written as (`XMLWriter.isUIDForm`): one
    /// non-negative integer `CF$UID`, which XML cannot hold as a dictionary.
    private mutating func isUIDForm(_ span: Span<UInt8>, _ entries: Entries) throws(PlistError) -> Bool {
        guard entries.keys.count == 1, entries.keys[0] == "CF$UID" else { return false }
        let offset = layout.offset(of: entries.values[0], in: span)
        guard BinaryMarker.Kind(span[offset]) == .integer else { return false }
        return try layout.integer(span, span[offset], at: offset).uint64 != nil
    }

    /// `error`, an `.unrepresentable` from writing the value `ref`, with the key path of the
    /// first value XML cannot hold, in the order `XMLWriter` looks for it (`Plist.firstPath`:
    /// depth first, each dictionary in its own order).
    mutating func withKeyPath(_ error: PlistError, _ span: Span<UInt8>, from ref: Int) -> PlistError {
        guard case .unrepresentable(_, let type, let format) = error.kind,
            let path = try? firstUnrepresentablePath(span, from: ref)
        else { return error }
        return PlistError(
            .unrepresentable(keyPath: PlistKeyPath(components: path).description, type: type, format: format), at: 0)
    }

    /// The path of the first value under `ref`, depth first, that `XMLWriter.problem(with:)`
    /// finds XML cannot hold, or nil.
    private mutating func firstUnrepresentablePath(_ span: Span<UInt8>, from ref: Int) throws(PlistError) -> [String]? {
        // Depth first with a stack of its own: values nest as deep as `maxDepth` allows.
        var stack: [(ref: Int, path: [String])] = [(ref, [])]
        while let (ref, path) = stack.popLast() {
            let offset = layout.offset(of: ref, in: span)
            let marker = span[offset]
            switch BinaryMarker.Kind(marker) {
            case .array, .set:
                let (count, start) = try layout.length(span, marker, at: offset, unit: layout.referenceSize)
                for index in (0..<count).reversed() {
                    stack.append(
                        (try layout.reference(span, at: start + index * layout.referenceSize), path + [String(index)])
                    )
                }
            case .dictionary:
                let entries = try entries(span, ref, marker, at: offset)
                if try isUIDForm(span, entries)
                    || entries.keys.keys.contains(where: { XMLWriter.problem(withKey: $0.utf8.span) != nil })
                {
                    return path
                }
                for index in (0..<entries.keys.count).reversed() {
                    stack.append((entries.values[index], path + [entries.keys[index]]))
                }
            default:
                let scalar = try layout.scalar(span, marker, at: offset, scratch: &scratch).value
                if XMLWriter.problem(with: scalar, rules: .coreFoundation) != nil { return path }
            }
        }
        return nil
    }
}
