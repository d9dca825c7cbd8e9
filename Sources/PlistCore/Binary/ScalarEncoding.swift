#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The byte encodings of scalar objects and object headers.
enum ScalarEncoding {
    static func scalar(_ value: Plist, into out: inout [UInt8]) {
        switch value {
        case .string(let string):
            self.string(string, into: &out)
        case .integer(let integer):
            self.integer(integer, into: &out)
        case .real(let real):
            eightBytes(BinaryMarker.real64, real.bitPattern, into: &out)
        case .bool(let bool):
            out.append(bool ? BinaryMarker.true : BinaryMarker.false)
        case .date(let date):
            eightBytes(BinaryMarker.date, date.timeIntervalSinceReferenceDate.bitPattern, into: &out)
        case .data(let data):
            header(.data, count: data.count, into: &out)
            out.append(contentsOf: data)
        case .uid(let uid):
            let width = BinaryMarker.powerOfTwoWidth(holding: uid)
            out.append(BinaryMarker.Kind.uid.marker(low: UInt8(width - 1)))
            appendUInt(uid, width: width, to: &out)
        case .array, .dictionary:
            preconditionFailure("containers are not scalars")
        }
    }

    /// A real (`BinaryMarker.real64`) or date (`BinaryMarker.date`) from its bits.
    static func eightBytes(_ marker: UInt8, _ bits: UInt64, into out: inout [UInt8]) {
        out.append(marker)
        appendUInt(bits, width: 8, to: &out)
    }

    /// `string`, as `string(_:knownASCII:into:)` writes its UTF-8; a native `String` knows
    /// whether it is ASCII, which spares reading it.
    static func string(_ string: String, into out: inout [UInt8]) {
        let text = string.utf8Span
        Self.string(text.span, knownASCII: text.isKnownASCII, into: &out)
    }

    /// The string with UTF-8 `utf8` (valid, as every `String`'s is): ASCII when every character is
    /// ASCII (as `knownASCII` may say), else UTF-16BE.
    static func string(_ utf8: Span<UInt8>, knownASCII: Bool = false, into out: inout [UInt8]) {
        if knownASCII || utf8.isASCII {
            header(.asciiString, count: utf8.count, into: &out)
            out.append(addingCapacity: utf8.count) { $0.append(copying: utf8) }
            return
        }
        // Every byte but a continuation byte starts a character; 4-byte ones take two units.
        var units = 0
        for index in utf8.indices where utf8[index] & 0xC0 != 0x80 { units += utf8[index] >= 0xF0 ? 2 : 1 }
        header(.utf16String, count: units, into: &out)
        out.append(addingCapacity: 2 * units) { span in
            var index = 0
            while index < utf8.count {
                let lead = UInt32(utf8[index])
                let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
                var value = length == 1 ? lead : lead & (0x7F >> length)
                for offset in 1..<length { value = value << 6 | UInt32(utf8[index + offset] & 0x3F) }
                index += length
                if value >= 0x10000 {
                    value -= 0x10000
                    span.appendBigEndian(UInt64(0xD800 | value >> 10), width: 2)
                    value = 0xDC00 | value & 0x3FF
                }
                span.appendBigEndian(UInt64(value), width: 2)
            }
        }
    }

    static func integer(_ integer: PlistInteger, into out: inout [UInt8]) {
        if let value = integer.uint64 {
            if value > UInt64(Int64.max) {
                out.append(BinaryMarker.int128)
                appendUInt(0, width: 8, to: &out)
                appendUInt(value, width: 8, to: &out)
            } else {
                let width = BinaryMarker.powerOfTwoWidth(holding: value)
                out.append(BinaryMarker.Kind.integer.marker(low: UInt8(width.trailingZeroBitCount)))
                appendUInt(value, width: width, to: &out)
            }
        } else {
            out.append(BinaryMarker.int64)
            appendUInt(integer.bitPattern, width: 8, to: &out)
        }
    }

    /// The marker of `kind` with its count: in the low nibble below 15, else as a following
    /// integer object.
    static func header(_ kind: BinaryMarker.Kind, count: Int, into out: inout [UInt8]) {
        if count < BinaryMarker.countFollows {
            out.append(kind.marker(low: UInt8(count)))
        } else {
            out.append(kind.marker(low: BinaryMarker.countFollows))
            integer(PlistInteger(count), into: &out)
        }
    }
}

/// The fewest bytes (1...8) that hold `value`. (CoreFoundation requires the object count and
/// the offset table's offset to fit in the reference and offset widths.)
func byteWidth(holding value: UInt64) -> Int {
    max(1, (64 - value.leadingZeroBitCount + 7) / 8)
}

extension OutputSpan<UInt8> {
    /// The low `width` bytes of `value`, most significant first.
    @inline(__always)
    mutating func appendBigEndian(_ value: UInt64, width: Int) {
        var shift = 8 * (width - 1)
        while shift >= 0 {
            append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            shift -= 8
        }
    }
}

@inline(__always)
func appendUInt(_ value: UInt64, width: Int, to out: inout [UInt8]) {
    out.append(addingCapacity: width) { $0.appendBigEndian(value, width: width) }
}
