/// The 32 bytes that end a `bplist00` file: six unused bytes, the widths of an offset and of an
/// object reference (one byte each), then as 8-byte big-endian integers the number of objects,
/// the top object and where the offset table starts. Read here as the bytes say; `BinaryLayout`
/// checks the fields against the file.
struct BinaryTrailer {
    /// Its size in bytes.
    static let size = 32

    /// Where each field lies in the trailer.
    enum Field {
        static let offsetSize = 6
        static let referenceSize = 7
        static let objectCount = 8
        static let topObject = 16
        static let tableOffset = 24
    }

    var offsetSize: UInt64
    var referenceSize: UInt64
    var objectCount: UInt64
    var topObject: UInt64
    var tableOffset: UInt64

    init(offsetSize: Int, referenceSize: Int, objectCount: Int, topObject: Int, tableOffset: Int) {
        self.offsetSize = UInt64(offsetSize)
        self.referenceSize = UInt64(referenceSize)
        self.objectCount = UInt64(objectCount)
        self.topObject = UInt64(topObject)
        self.tableOffset = UInt64(tableOffset)
    }

    /// The trailer at `start` in `bytes`, which must hold its 32 bytes.
    init(_ bytes: Span<UInt8>, at start: Int) {
        offsetSize = UInt64(bytes[start + Field.offsetSize])
        referenceSize = UInt64(bytes[start + Field.referenceSize])
        objectCount = readUInt(bytes, at: start + Field.objectCount, width: 8)
        topObject = readUInt(bytes, at: start + Field.topObject, width: 8)
        tableOffset = readUInt(bytes, at: start + Field.tableOffset, width: 8)
    }

    /// Appends the trailer's bytes to `out`.
    func append(to out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(0, count: Field.offsetSize))
        out.append(UInt8(truncatingIfNeeded: offsetSize))
        out.append(UInt8(truncatingIfNeeded: referenceSize))
        appendUInt(objectCount, width: 8, to: &out)
        appendUInt(topObject, width: 8, to: &out)
        appendUInt(tableOffset, width: 8, to: &out)
    }
}
