/// Writes a binary property list (`bplist00`) as its values arrive, for documents too large to
/// hold: each object is written as soon as it is complete (a container when it ends, after
/// its contents), and handed on in chunks of about 1 MiB.
///
/// Memory follows the depth and the open containers, not the document: it keeps the object
/// numbers of the open containers' contents, a bounded table of recent scalars, and one entry
/// per object written for the offset table at the end, packed in one or two bytes for most
/// objects. That table is the one part that grows with the document. To apply a repeated key,
/// the open dictionaries keep a hash of each key and the key itself (20 to 28 bytes and the
/// key's bytes per key); a writer that can read its output back keeps only the hashes and
/// where each key was written.
///
/// A dictionary's repeated key keeps its first place and takes its last value, as
/// `Plist.dictionary` does; the replaced value stays in the file, unreferenced. Scalars
/// (strings, keys, numbers, dates, data, UIDs) are stored once while a bounded table of them
/// remembers them: the output can be somewhat larger than `Plist.binaryBytes` writes, which
/// shares every scalar and uses the fewest bytes for object references (this writer uses
/// four, since it cannot know the object count in advance).
///
/// ```swift
/// var writer = BinaryPlistStreamWriter { chunk in try output.write(chunk) }
/// try writer.beginDictionary()
/// for track in tracks {
///     try writer.key(track.id)
///     try writer.append(track.plist)
/// }
/// try writer.endDictionary()
/// try writer.finish()
/// ```
///
/// Calls out of order (a value in a dictionary without its key, ending a container that is
/// not open, finishing with containers open, anything after `finish()`) throw
/// `PlistError` with code `.writerMisuse`; after any error the writer refuses everything.
public struct BinaryPlistStreamWriter {
    private static let chunkSize = 1 << 20
    /// Bytes per object reference: the count of objects is not known when containers are written.
    private static let referenceSize = 4

    private let write: (_ chunk: [UInt8]) throws(PlistError) -> Void
    /// Reads `count` bytes of the output written so far at `offset`, when it can be read back.
    private let reread: ((_ offset: Int, _ count: Int) throws(PlistError) -> [UInt8])?
    private let maxDepth: Int
    private let maxOutputBytes: Int

    private var buffer: [UInt8] = []
    /// Bytes handed to `write` before `buffer`.
    private var flushed = 0
    /// The offset of each object, as the difference from the previous one in LEB128.
    private var offsetDeltas: [UInt8] = []
    private var objectCount = 0
    private var lastOffset = 0
    private var scalars = RecentScalars()

    private struct Container {
        var isDictionary: Bool
        /// Where its values start in `valueObjects`, and its keys in `keyObjects`.
        var start: Int
        var keyStart: Int
        /// Where its keys start in `keys`, and its kept keys in `keys.arena`.
        var keyTableStart: Int
        var arenaStart: Int
        var pendingKey: Int32?
        var pendingKeyText = ""
        /// The pending key's hash and place in `keys`, and the index of the same key before it.
        var pendingHash: UInt32 = 0
        var pendingPlace = 0
        var pendingRepeat: Int?
    }

    private var open: [Container] = []
    /// The keys (dictionaries) and values of the open containers, innermost last.
    private var keyObjects: [Int32] = []
    private var valueObjects: [Int32] = []
    private var keys = BinaryStreamKeys()
    /// The encoding of the key being added.
    private var encodedKey: [UInt8] = []
    private var top: Int?
    private var finished = false
    private var failed = false

    /// A writer handing its output to `write` in chunks. `options.maxDepth` bounds the nesting
    /// and `options.maxOutputBytes` the output (the other options are for other writers).
    public init(
        options: PlistWriteOptions = .init(), write: @escaping (_ chunk: [UInt8]) throws(PlistError) -> Void
    ) {
        self.init(options: options, write: write, reread: nil)
    }

    /// A writer that can read back what `write` has written (`reread` returns `count` bytes
    /// from `offset`, counted from the output's start): it keeps hashes of dictionary keys,
    /// not the keys.
    package init(
        options: PlistWriteOptions = .init(), write: @escaping (_ chunk: [UInt8]) throws(PlistError) -> Void,
        reread: ((_ offset: Int, _ count: Int) throws(PlistError) -> [UInt8])?
    ) {
        self.write = write
        self.reread = reread
        maxDepth = options.maxDepth
        maxOutputBytes = options.maxOutputBytes
        buffer.reserveCapacity(Self.chunkSize + 64 * 1024)
        buffer.append(contentsOf: BinaryMarker.header)
    }

    /// The key of the next value in the open dictionary.
    /// - Throws: `.writerMisuse` outside a dictionary or when the previous key has no value yet.
    public mutating func key(_ key: String) throws(PlistError) {
        try check()
        guard let container = open.last, container.isDictionary else {
            try misuse("a key outside a dictionary")
        }
        guard container.pendingKey == nil else {
            try misuse("the key \(container.pendingKeyText.debugDescription) has no value")
        }
        encodedKey.removeAll(keepingCapacity: true)
        ScalarEncoding.string(key, into: &encodedKey)
        let encoded = encodedKey
        let hash = BinaryStreamKeys.hash(encoded)
        let earlier = try keys.find(hash: hash, start: container.keyTableStart) { place throws(PlistError) in
            try storedKey(at: place, equalsEncoded: encoded)
        }
        let (object, offset) = try add { $0.append(contentsOf: encoded) }
        let index = open.count - 1
        open[index].pendingKey = Int32(truncatingIfNeeded: object)
        open[index].pendingKeyText = key
        open[index].pendingHash = hash
        open[index].pendingRepeat = earlier
        if earlier == nil { open[index].pendingPlace = reread == nil ? keys.keep(encoded) : offset }
    }

    /// Appends `value`: to the open array, as the value of the open dictionary's key, or as
    /// the document's top value. Arrays and dictionaries are written whole.
    /// - Throws: `.writerMisuse` where no value may stand; `.tooDeep`, `.outputTooLarge`, or
    ///   what `write` throws.
    public mutating func append(_ value: Plist) throws(PlistError) {
        try check()
        switch value {
        case .array(let elements):
            try beginArray()
            for element in elements { try append(element) }
            try endArray()
        case .dictionary(let dictionary):
            try beginDictionary()
            for (key, element) in dictionary {
                try self.key(key)
                try append(element)
            }
            try endDictionary()
        case .integer(let integer):
            try place(try add { ScalarEncoding.integer(integer, into: &$0) }.object)
        default:
            try place(try add { ScalarEncoding.scalar(value, into: &$0) }.object)
        }
    }

    /// Opens an array, which the values appended until `endArray()` fill.
    public mutating func beginArray() throws(PlistError) {
        try begin(dictionary: false)
    }

    /// Opens a dictionary, which pairs of `key(_:)` and a value fill until `endDictionary()`.
    public mutating func beginDictionary() throws(PlistError) {
        try begin(dictionary: true)
    }

    /// Closes the innermost open container, which must be an array, and writes it.
    public mutating func endArray() throws(PlistError) {
        try check()
        guard let container = open.last, !container.isDictionary else {
            try misuse(open.isEmpty ? "endArray() with no container open" : "endArray() ends a dictionary")
        }
        open.removeLast()
        let count = valueObjects.count - container.start
        let object = try addContainer(.array, count: count, keys: [], values: valueObjects[container.start...])
        valueObjects.removeSubrange(container.start...)
        try place(object)
    }

    /// Closes the innermost open container, which must be a dictionary, and writes it.
    public mutating func endDictionary() throws(PlistError) {
        try check()
        guard let container = open.last, container.isDictionary else {
            try misuse(
                open.isEmpty ? "endDictionary() with no container open" : "endDictionary() ends an array")
        }
        guard container.pendingKey == nil else {
            try misuse("the key \(container.pendingKeyText.debugDescription) has no value")
        }
        open.removeLast()
        let count = valueObjects.count - container.start
        let object = try addContainer(
            .dictionary, count: count, keys: keyObjects[container.keyStart...], values: valueObjects[container.start...]
        )
        keyObjects.removeSubrange(container.keyStart...)
        valueObjects.removeSubrange(container.start...)
        keys.remove(from: container.keyTableStart, arenaStart: container.arenaStart)
        try place(object)
    }

    /// Closes the innermost container, an empty dictionary, putting the scalar `replacement`
    /// in its place: the XML reader's `CF$UID` dictionaries, which are UIDs.
    package mutating func endEmptyDictionary(replacingWith replacement: Plist) throws(PlistError) {
        try check()
        precondition(open.last?.isDictionary == true && open.last?.start == valueObjects.count)
        let container = open.removeLast()
        keys.remove(from: container.keyTableStart, arenaStart: container.arenaStart)
        try append(replacement)
    }

    /// Writes the offset table and trailer, and hands over the last chunk.
    /// - Throws: `.writerMisuse` when containers are open or no value was appended.
    public mutating func finish() throws(PlistError) {
        try check()
        guard open.isEmpty else {
            try misuse("finish() with \(open.count) container\(open.count == 1 ? "" : "s") still open")
        }
        guard let top else { try misuse("finish() before any value") }
        let tableOffset = flushed + buffer.count
        let offsetSize = byteWidth(holding: UInt64(tableOffset))
        var offset = 0
        var index = 0
        while index < offsetDeltas.count {
            var delta = 0
            var shift = 0
            while true {
                let byte = offsetDeltas[index]
                index += 1
                delta |= Int(byte & 0x7F) << shift
                shift += 7
                if byte < 0x80 { break }
            }
            offset += delta
            appendUInt(UInt64(offset), width: offsetSize, to: &buffer)
            if buffer.count >= Self.chunkSize { try flush() }
        }
        BinaryTrailer(
            offsetSize: offsetSize, referenceSize: Self.referenceSize, objectCount: objectCount, topObject: top,
            tableOffset: tableOffset
        ).append(to: &buffer)
        try flush()
        finished = true
    }

    // MARK: -

    private mutating func begin(dictionary: Bool) throws(PlistError) {
        try check()
        try checkValuePlace()
        guard open.count < maxDepth else { try fail(PlistError(.tooDeep(limit: maxDepth), at: 0)) }
        open.append(
            Container(
                isDictionary: dictionary, start: valueObjects.count, keyStart: keyObjects.count,
                keyTableStart: keys.count, arenaStart: keys.arena.count))
    }

    /// Checks that a value may stand where the next one goes.
    private mutating func checkValuePlace() throws(PlistError) {
        if let container = open.last {
            if container.isDictionary, container.pendingKey == nil {
                try misuse("a value in a dictionary without a key")
            }
        } else if top != nil {
            try misuse("more than one top-level value")
        }
    }

    /// Puts the written `object` where the next value goes.
    private mutating func place(_ object: Int) throws(PlistError) {
        try checkValuePlace()
        let reference = Int32(truncatingIfNeeded: object)
        guard !open.isEmpty else {
            top = object
            return
        }
        let index = open.count - 1
        guard open[index].isDictionary, let key = open[index].pendingKey else {
            valueObjects.append(reference)
            return
        }
        open[index].pendingKey = nil
        if let earlier = open[index].pendingRepeat {
            // A repeated key: first place, last value.
            valueObjects[open[index].start + earlier] = reference
            return
        }
        keys.append(hash: open[index].pendingHash, place: open[index].pendingPlace, start: open[index].keyTableStart)
        keyObjects.append(key)
        valueObjects.append(reference)
    }

    /// Writes the scalar `encode` writes, unless the recent-scalar table has it; returns its
    /// object and where it starts in the output.
    private mutating func add(_ encode: (inout [UInt8]) -> Void) throws(PlistError) -> (object: Int, offset: Int) {
        let start = buffer.count
        encode(&buffer)
        if let known = scalars.find(buffer[start...]) {
            buffer.removeSubrange(start...)
            return known
        }
        let object = try record(objectAt: start)
        scalars.insert(buffer[start...], object: object, offset: flushed + start)
        let offset = flushed + start
        if buffer.count >= Self.chunkSize { try flush() }
        return (object, offset)
    }

    /// Whether the key kept at `place` (an offset in the output, or in `keys.arena`) is
    /// `encoded`. Its first byte and length bytes hold its length, so comparing the
    /// candidate's length is enough.
    private func storedKey(at place: Int, equalsEncoded encoded: [UInt8]) throws(PlistError) -> Bool {
        guard let reread else {
            return place + encoded.count <= keys.arena.count
                && keys.arena.span.extracting(place..<place + encoded.count).hasSameBytes(as: encoded.span)
        }
        let end = place + encoded.count
        guard end <= flushed + buffer.count else { return false }
        var earlier: [UInt8] = []
        if place < flushed {
            earlier = try reread(place, min(end, flushed) - place)
            guard earlier.count == min(end, flushed) - place else {
                throw PlistError(.io(reason: "the output could not be read back"), at: place)
            }
        }
        if end > flushed { earlier += buffer[max(place, flushed) - flushed..<end - flushed] }
        return earlier == encoded
    }

    /// Writes a container with the object numbers `keys` (dictionaries) and `values`; returns
    /// its object. The references are handed over chunk by chunk, so that a container of
    /// millions of entries does not grow the buffer to their size.
    private mutating func addContainer(
        _ kind: BinaryMarker.Kind, count: Int, keys: ArraySlice<Int32>, values: ArraySlice<Int32>
    ) throws(PlistError) -> Int {
        let object = try record(objectAt: buffer.count)
        ScalarEncoding.header(kind, count: count, into: &buffer)
        for key in keys {
            Self.appendReference(key, to: &buffer)
            if buffer.count >= Self.chunkSize { try flush() }
        }
        for value in values {
            Self.appendReference(value, to: &buffer)
            if buffer.count >= Self.chunkSize { try flush() }
        }
        return object
    }

    /// Numbers the object starting at `buffer[start]`.
    private mutating func record(objectAt start: Int) throws(PlistError) -> Int {
        let offset = flushed + start
        guard offset <= maxOutputBytes else {
            try fail(PlistError(.outputTooLarge(limit: maxOutputBytes), at: 0))
        }
        guard objectCount < Int(Int32.max) else {
            try fail(PlistError(.tooManyObjects(limit: Int(Int32.max)), at: 0))
        }
        var delta = offset - lastOffset
        while delta >= 0x80 {
            offsetDeltas.append(UInt8(truncatingIfNeeded: delta) | 0x80)
            delta >>= 7
        }
        offsetDeltas.append(UInt8(delta))
        lastOffset = offset
        objectCount += 1
        return objectCount - 1
    }

    private mutating func flush() throws(PlistError) {
        guard !buffer.isEmpty else { return }
        guard flushed + buffer.count <= maxOutputBytes else {
            try fail(PlistError(.outputTooLarge(limit: maxOutputBytes), at: 0))
        }
        do throws(PlistError) { try write(buffer) } catch { try fail(error) }
        flushed += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    private static func appendReference(_ object: Int32, to out: inout [UInt8]) {
        appendUInt(UInt64(UInt32(bitPattern: object)), width: referenceSize, to: &out)
    }

    private func check() throws(PlistError) {
        if finished { throw PlistError(.writerMisuse("the writer has finished"), at: 0) }
        if failed { throw PlistError(.writerMisuse("the writer has failed before"), at: 0) }
    }

    private mutating func misuse(_ detail: String) throws(PlistError) -> Never {
        try fail(PlistError(.writerMisuse(detail), at: 0))
    }

    private mutating func fail(_ error: PlistError) throws(PlistError) -> Never {
        failed = true
        throw error
    }
}

/// The scalars written lately, by their encoded bytes, in bounded memory: when it holds
/// `capacity` bytes it starts again empty.
private struct RecentScalars {
    static let capacity = 2 << 20
    /// Scalars longer than this are not remembered (long ones rarely repeat).
    static let longest = 256

    private var bytes: [UInt8] = []
    private var entries: [ObjectTable.Entry] = []
    private var objects: [(object: Int, offset: Int)] = []
    private var index = ScalarIndex(capacity: 1 << 16)

    func find(_ scalar: ArraySlice<UInt8>) -> (object: Int, offset: Int)? {
        guard scalar.count <= Self.longest else { return nil }
        let hash = ScalarIndex.hash(scalar)
        return index.find(hash: hash, candidate: scalar, bytes: bytes, entries: entries).object.map { objects[$0] }
    }

    mutating func insert(_ scalar: ArraySlice<UInt8>, object: Int, offset: Int) {
        let length = scalar.count
        guard length <= Self.longest else { return }
        if bytes.count + length > Self.capacity {
            bytes.removeAll(keepingCapacity: true)
            entries.removeAll(keepingCapacity: true)
            objects.removeAll(keepingCapacity: true)
            index = ScalarIndex(capacity: 1 << 16)
        }
        let hash = ScalarIndex.hash(scalar)
        let slot = index.find(hash: hash, candidate: scalar, bytes: bytes, entries: entries).slot
        entries.append(ObjectTable.Entry(marker: 0, start: bytes.count, count: length))
        bytes.append(contentsOf: scalar)
        objects.append((object, offset))
        index.insert(entries.count - 1, hash: hash, at: slot)
    }
}
