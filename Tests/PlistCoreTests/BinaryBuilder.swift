/// Lays out hand-made binary plists: the objects' bytes in order, then the offset table and
/// the trailer, with widths and fields that tests may set to anything.
struct BinaryBuilder {
    var objects: [[UInt8]]
    var top: UInt64 = 0
    var offsetSize = 1
    var referenceSize = 1

    /// The file's bytes; `adjust` may rewrite the object offsets before the table is written.
    func bytes(adjust: (inout [UInt64]) -> Void = { _ in }) -> [UInt8] {
        var out = Array("bplist00".utf8)
        var offsets: [UInt64] = []
        for object in objects {
            offsets.append(UInt64(out.count))
            out += object
        }
        adjust(&offsets)
        let tableOffset = UInt64(out.count)
        for offset in offsets { out += Self.bigEndian(offset, width: offsetSize) }
        out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        out += Self.bigEndian(UInt64(objects.count), width: 8)
        out += Self.bigEndian(top, width: 8)
        out += Self.bigEndian(tableOffset, width: 8)
        return out
    }

    /// A container marker with its references (in this builder's reference width).
    func container(_ marker: UInt8, _ references: [Int]) -> [UInt8] {
        let count = marker >> 4 == 0xD ? references.count / 2 : references.count
        var out: [UInt8] = count < 15 ? [marker | UInt8(count)] : [marker | 0x0F, 0x10, UInt8(count)]
        for reference in references { out += Self.bigEndian(UInt64(reference), width: referenceSize) }
        return out
    }

    static func bigEndian(_ value: UInt64, width: Int) -> [UInt8] {
        (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(width - 1 - $0))) }
    }

    static func ascii(_ text: String) -> [UInt8] { [0x50 | UInt8(text.utf8.count)] + Array(text.utf8) }
}
