
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension BinaryPlistFile {
    /// Writes the value at `path` as an XML property list, as it reads it: the bytes that
    /// `value(at: path).xmlBytes(options:)` gives, handed to `write` in chunks of about 1 MiB,
    /// without the value in memory. Memory follows the depth of the value and its widest
    /// dictionary (whose keys are sorted), not its size.
    ///
    /// The file's read limits (`PlistReadOptions`) count the values and content written, shared
    /// references at every use, and `options.maxOutputBytes` the bytes. An error can come after
    /// some chunks were written: write them to a temporary file (PlistKit's
    /// `writeXML(at:toFile:options:)` does) and drop it when this throws.
    /// - Throws: `PlistError`: the reader's errors for what is read, with their byte offsets;
    ///   `.tooDeep`, `.outputTooLarge`; or what `write` throws.
    public func writeXML(
        at path: PlistKeyPath = PlistKeyPath(components: []), options: PlistWriteOptions = .init(),
        to write: (_ chunk: [UInt8]) throws(PlistError) -> Void
    ) throws(PlistError) {
        let storage = bytes
        let span = storage.span
        let steps = Self.steps(path)
        let place = try locate(span, steps, plutil: true)
        var streamer = XMLStreamer(
            file: self, budget: ReadBudget(self.options), sortsKeys: options.sortsKeys,
            text: XMLOutput(options: options, capacity: XMLStreamer.chunkSize + 64 * 1024))
        try streamer.value(span, place.ref, depth: 0, readDepth: steps.count, write)
        try write(streamer.text?.finish() ?? [])
    }

    /// Reads everything in the file, as `Plist(binary:)` does (the offset table, and every
    /// object reachable from the top, with the file's read limits), without keeping any of it:
    /// memory follows the depth and the widest dictionary, not the file's size. A value shared
    /// through references is read at every use, as the limits count it.
    /// - Throws: `PlistError`: the error reading the whole file gives (or, for a file with
    ///   several problems, another of them), with its byte offset.
    public func check() throws(PlistError) {
        let storage = bytes
        let span = storage.span
        guard trailer.objectCount <= options.maxObjects else {
            throw PlistError(.tooManyObjects(limit: options.maxObjects), at: span.count - BinaryTrailer.size + 8)
        }
        try trailer.validateOffsets(span)
        var walker = XMLStreamer(file: self, budget: ReadBudget(options), sortsKeys: false, text: nil)
        try walker.value(span, trailer.topObject, depth: 0, readDepth: 0) { _ throws(PlistError) in }
    }
}

/// Walks objects of a binary file depth first and writes each as XML as it meets it (or, with
/// no `text`, only reads it).
private struct XMLStreamer {
    static let chunkSize = 1 << 20

    let file: BinaryPlistFile
    var budget: ReadBudget
    let sortsKeys: Bool
    var text: XMLOutput?
    /// The containers being written: meeting one again is a cycle.
    var open: Set<Int> = []
    var scratch: [UInt8] = []
    /// About how many bytes were read since a mapped file's pages were last dropped: they are
    /// dropped every 8 MiB, so that resident memory follows what was read lately, not the file.
    var readSinceRelease = 0

    var trailer: BinaryTrailer { file.trailer }

    init(file: BinaryPlistFile, budget: ReadBudget, sortsKeys: Bool, text: XMLOutput?) {
        self.file = file
        self.budget = budget
        self.sortsKeys = sortsKeys
        self.text = text
    }

    /// Writes object `ref`, indented `depth` tabs, found inside `readDepth` containers of the file.
    mutating func value(
        _ span: Span<UInt8>, _ ref: Int, depth: Int, readDepth: Int,
        _ write: (_ chunk: [UInt8]) throws(PlistError) -> Void
    ) throws(PlistError) {
        let offset = try trailer.checkedOffset(of: ref, in: span)
        let marker = span[offset]
        switch marker >> 4 {
        case 0xA, 0xC:
            try enter(ref, at: offset, readDepth: readDepth)
            let (count, start) = try trailer.length(span, marker, at: offset, unit: trailer.referenceSize)
            if try text?.open("array", isEmpty: count == 0, depth: depth) ?? true {
                for index in 0..<count {
                    let child = try trailer.reference(span, at: start + index * trailer.referenceSize)
                    try value(span, child, depth: depth + 1, readDepth: readDepth + 1, write)
                }
                text?.close("array", depth: depth)
            }
            open.remove(ref)
        case 0xD:
            try enter(ref, at: offset, readDepth: readDepth)
            let (keys, children) = try entries(span, marker, at: offset)
            if try text?.open("dict", isEmpty: keys.count == 0, depth: depth) ?? true {
                let order = sortsKeys && text != nil ? KeyOrder.sortedOrder(keys.keys) : nil
                for position in 0..<keys.count {
                    let index = order?[position] ?? position
                    let (key, child) = (keys[index], children[index])
                    try text?.key(key.utf8.span, depth: depth + 1)
                    try value(span, child, depth: depth + 1, readDepth: readDepth + 1, write)
                }
                text?.close("dict", depth: depth)
            }
            open.remove(ref)
        default:
            let (scalar, contentBytes) = try trailer.scalar(span, marker, at: offset, scratch: &scratch)
            try budget.countValue(contentBytes: contentBytes, at: offset)
            try text?.scalar(scalar, depth: depth)
            readSinceRelease += contentBytes + 16
            if readSinceRelease >= 8 << 20, let release = file.releasePages {
                release(file.bytes)
                readSinceRelease = 0
            }
        }
        if (text?.count ?? 0) >= Self.chunkSize, let chunk = text?.drain() { try write(chunk) }
    }

    /// Counts container `ref` and marks it open, after checking its depth and that it is not
    /// open already.
    private mutating func enter(_ ref: Int, at offset: Int, readDepth: Int) throws(PlistError) {
        try budget.enter(depth: readDepth, at: offset)
        guard open.insert(ref).inserted else { throw PlistError(.cycle(object: ref), at: offset) }
        try budget.count(objects: 1, at: offset)
    }

    /// The keys of the dictionary at `offset` and their values' objects: a repeated key (the
    /// same scalars) at its first place with its last value, as `Plist(binary:)` reads it.
    private mutating func entries(
        _ span: Span<UInt8>, _ marker: UInt8, at offset: Int
    ) throws(PlistError) -> (keys: DictionaryKeys, values: [Int]) {
        let referenceSize = trailer.referenceSize
        let (count, start) = try trailer.length(span, marker, at: offset, unit: 2 * referenceSize)
        let keys = DictionaryKeys(minimumCapacity: count)
        var values: [Int] = []
        values.reserveCapacity(count)
        for index in 0..<count {
            let (key, keyOffset, contentBytes) = try trailer.checkedKey(span, entry: index, start: start, scratch: &scratch)
            try budget.count(contentBytes: contentBytes, at: keyOffset)
            let value = try trailer.reference(span, at: start + (count + index) * referenceSize)
            if keys.append(key) {
                values.append(value)
            } else if let place = keys.index(of: key) {
                values[place] = value
            }
        }
        return (keys, values)
    }
}
