/// The layout of a `bplist00` file: its header, its trailer (`BinaryTrailer`) checked against the
/// file's size, and every entry of its offset table, so that every later offset computation
/// stays inside the input; with the reading of objects and references (`BinaryLayout+Objects`).
/// Every binary reader (the tree reader, the checker, the streaming writer, the lazy reader and
/// the Codable decoder's objects) starts from one: the offset table is checked once, in one
/// linear pass, whatever is read afterwards.
struct BinaryLayout {
    /// Width in bytes of each offset-table entry (1...8).
    let offsetSize: Int
    /// Width in bytes of each object reference (1...8).
    let referenceSize: Int
    /// Number of objects (entries in the offset table), at least 1.
    let objectCount: Int
    /// The top object's number, below `objectCount`.
    let topObject: Int
    /// Where the offset table starts; also where the object area ends.
    let tableOffset: Int

    // Invariant after init: 8 < tableOffset, tableOffset + objectCount * offsetSize + 32 == bytes.count,
    // and every offset-table entry lies in 8..<tableOffset.
    /// Reads the header and trailer of `bytes` and checks every entry of the offset table.
    /// `didRead` is told about the table as it is read (in parts of about 1 MiB), for a reader of a
    /// mapped file that drops the pages it has read (`BinaryPlistFile`).
    /// - Throws: `PlistError` for a header or trailer that is not valid, more than `maxObjects`
    ///   objects, or an offset-table entry outside the object area.
    init(_ bytes: Span<UInt8>, maxObjects: Int, didRead: (() -> Void)? = nil) throws(PlistError) {
        guard !bytes.isEmpty else { throw PlistError(.emptyInput, at: 0) }
        for (index, byte) in BinaryMarker.magic.enumerated() {
            guard index < bytes.count else { throw PlistError(.truncated(what: "the header"), at: bytes.count) }
            guard bytes[index] == byte else { throw PlistError(.badMagic, at: 0) }
        }
        guard bytes.count >= 8 else { throw PlistError(.truncated(what: "the header"), at: bytes.count) }
        guard bytes[6] == BinaryMarker.readableVersionMajor else {
            let version = String(decoding: [bytes[6], bytes[7]], as: UTF8.self)
            throw PlistError(.unsupportedVersion(version), at: 6)
        }
        guard bytes.count >= 8 + 1 + BinaryTrailer.size else {
            throw PlistError(.truncated(what: "the 32-byte trailer"), at: bytes.count)
        }
        let start = bytes.count - BinaryTrailer.size
        let trailer = BinaryTrailer(bytes, at: start)
        let (offsetSize, referenceSize) = (trailer.offsetSize, trailer.referenceSize)
        let (objectCount, topObject, tableOffset) = (trailer.objectCount, trailer.topObject, trailer.tableOffset)
        typealias Field = BinaryTrailer.Field

        guard (1...8).contains(offsetSize) else {
            throw PlistError(.invalidTrailer(field: "offset size", value: offsetSize), at: start + Field.offsetSize)
        }
        guard (1...8).contains(referenceSize) else {
            throw PlistError(
                .invalidTrailer(field: "object reference size", value: referenceSize), at: start + Field.referenceSize)
        }
        guard objectCount >= 1 else {
            throw PlistError(.invalidTrailer(field: "object count", value: 0), at: start + Field.objectCount)
        }
        guard referenceSize == 8 || objectCount < 1 << (8 * referenceSize) else {
            throw PlistError(
                .invalidTrailer(
                    field: "object count (more than \(referenceSize)-byte references reach)", value: objectCount),
                at: start + Field.objectCount)
        }
        guard topObject < objectCount else {
            throw PlistError(
                .referenceOutOfRange(topObject, objectCount: Int(clamping: objectCount)), at: start + Field.topObject)
        }
        guard tableOffset >= 9 else {
            throw PlistError(
                .invalidTrailer(field: "offset table offset", value: tableOffset), at: start + Field.tableOffset)
        }
        let (tableSize, overflow) = objectCount.multipliedReportingOverflow(by: offsetSize)
        guard !overflow, tableOffset <= UInt64(start), tableSize == UInt64(start) - tableOffset else {
            throw PlistError(
                .misplacedOffsetTable(tableOffset: tableOffset, objectCount: objectCount, offsetSize: Int(offsetSize)),
                at: start + Field.tableOffset)
        }
        guard offsetSize == 8 || tableOffset < 1 << (8 * offsetSize) else {
            throw PlistError(
                .invalidTrailer(
                    field: "offset table offset (beyond what \(offsetSize)-byte offsets reach)", value: tableOffset),
                at: start + Field.tableOffset)
        }
        guard objectCount <= UInt64(maxObjects) else {
            throw PlistError(.tooManyObjects(limit: maxObjects), at: start + Field.objectCount)
        }
        self.offsetSize = Int(offsetSize)
        self.referenceSize = Int(referenceSize)
        self.objectCount = Int(objectCount)
        self.topObject = Int(topObject)
        self.tableOffset = Int(tableOffset)
        try validateOffsets(bytes, didRead: didRead)
    }

    /// Checks that every offset-table entry points into the object area (after the header,
    /// before the offset table).
    /// - Throws: `.objectOffsetOutOfRange` at the first entry that does not.
    private func validateOffsets(_ bytes: Span<UInt8>, didRead: (() -> Void)?) throws(PlistError) {
        // One loop per common width, so that `readUInt` reads a constant width: most tables
        // have 1- or 2-byte entries, and this loop reads every one of them.
        switch offsetSize {
        case 1: try validateOffsets(bytes, width: 1, didRead: didRead)
        case 2: try validateOffsets(bytes, width: 2, didRead: didRead)
        case 4: try validateOffsets(bytes, width: 4, didRead: didRead)
        default: try validateOffsets(bytes, width: offsetSize, didRead: didRead)
        }
    }

    @inline(__always)
    private func validateOffsets(_ bytes: Span<UInt8>, width: Int, didRead: (() -> Void)?) throws(PlistError) {
        var position = tableOffset
        let part = (1 << 20) / width
        var untilPart = part
        for object in 0..<objectCount {
            let offset = readUInt(bytes, at: position, width: width)
            guard offset >= 8, offset < UInt64(tableOffset) else {
                throw PlistError(.objectOffsetOutOfRange(object: object, offset: offset), at: position)
            }
            position += width
            untilPart -= 1
            if untilPart == 0 {
                didRead?()
                untilPart = part
            }
        }
    }

    /// The byte offset of object `object` (which must be below `objectCount`): inside the
    /// object area, which `init` checked for every entry.
    @inline(__always)
    func offset(of object: Int, in bytes: Span<UInt8>) -> Int {
        Int(truncatingIfNeeded: readUInt(bytes, at: tableOffset + object * offsetSize, width: offsetSize))
    }
}

/// What `readUInt` reads, in one 8-byte load, for a number with at least 8 bytes from `offset`
/// to the end of `bytes`: an object reference of a file `BinaryLayout` checked, which the
/// offset table and the 32-byte trailer follow. For the references a walk reads, where
/// `readUInt`'s loads of single bytes were most of counting them.
@inline(__always)
func readUIntInWord(_ bytes: Span<UInt8>, at offset: Int, width: Int) -> UInt64 {
    // A single byte is read alone: one load, not a load, a byte swap and a shift.
    width == 1 ? UInt64(bytes[offset]) : bytes.word(at: offset).byteSwapped >> UInt64(64 - 8 * width)
}

/// The big-endian unsigned integer of `width` (at most 8) bytes at `offset`; the caller has
/// checked that the bytes exist.
@inline(__always)
func readUInt(_ bytes: Span<UInt8>, at offset: Int, width: Int) -> UInt64 {
    // The widths files use most, unrolled: offsets and references are read for every value.
    switch width {
    case 1: return UInt64(bytes[offset])
    case 2: return UInt64(bytes[offset]) << 8 | UInt64(bytes[offset + 1])
    case 3: return UInt64(bytes[offset]) << 16 | UInt64(bytes[offset + 1]) << 8 | UInt64(bytes[offset + 2])
    case 4:
        return UInt64(bytes[offset]) << 24 | UInt64(bytes[offset + 1]) << 16 | UInt64(bytes[offset + 2]) << 8
            | UInt64(bytes[offset + 3])
    default: break
    }
    var value: UInt64 = 0
    for index in offset..<offset + width {
        value = value << 8 | UInt64(bytes[index])
    }
    return value
}
