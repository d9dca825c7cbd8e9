/// Text encodings as CoreFoundation guesses them for property lists: a byte-order mark, else
/// the pattern of zero bytes at the start (BOM-less UTF-16 or UTF-32), else UTF-8 or what the
/// document itself declares.
package enum UnicodeText {
    package enum Encoding: Equatable {
        case utf16(bigEndian: Bool)
        case utf32(bigEndian: Bool)
    }

    /// The UTF-16 or UTF-32 encoding of `bytes` and the length of its byte-order mark, or `nil`
    /// for anything else (UTF-8 with or without a mark, or another 8-bit encoding).
    package static func wideEncoding(of bytes: Span<UInt8>) -> (encoding: Encoding, markLength: Int)? {
        let count = bytes.count
        func at(_ index: Int) -> UInt8? { index < count ? bytes[index] : nil }
        switch (at(0), at(1), at(2), at(3)) {
        case (0x00, 0x00, 0xFE, 0xFF): return (.utf32(bigEndian: true), 4)
        case (0xFF, 0xFE, 0x00, 0x00): return (.utf32(bigEndian: false), 4)
        case (0xEF, 0xBB, 0xBF, _): return nil
        case (0xFE, 0xFF, _, _): return (.utf16(bigEndian: true), 2)
        case (0xFF, 0xFE, _, _): return (.utf16(bigEndian: false), 2)
        case (0x00, 0x00, 0x00, .some(let fourth)) where fourth != 0: return (.utf32(bigEndian: true), 0)
        case (.some(let first), 0x00, 0x00, 0x00) where first != 0: return (.utf32(bigEndian: false), 0)
        case (0x00, .some(let second), _, _) where second != 0: return (.utf16(bigEndian: true), 0)
        case (.some(let first), 0x00, _, _) where first != 0: return (.utf16(bigEndian: false), 0)
        default: return nil
        }
    }

    /// The UTF-8 text of a text format's input, and where its content starts: UTF-16 and UTF-32
    /// are transcoded, a UTF-8 byte-order mark is skipped.
    /// - Throws: `PlistError` with `.emptyInput`, or as `utf8(from:encoding:markLength:)`.
    package static func utf8Text(of input: [UInt8]) throws(PlistError) -> (text: [UInt8], start: Int) {
        guard !input.isEmpty else { throw PlistError(.emptyInput, at: 0) }
        if let (encoding, markLength) = wideEncoding(of: input.span) {
            return (try utf8(from: input.span, encoding: encoding, markLength: markLength), 0)
        }
        return (input, TextCursor.markLength(of: input.span))
    }

    /// `bytes` (after a mark of `markLength` bytes) transcoded from `encoding` to UTF-8.
    /// - Throws: `PlistError` with `.invalidUTF16` or `.invalidUTF32` and the offset of the bad unit.
    package static func utf8(
        from bytes: Span<UInt8>, encoding: Encoding, markLength: Int
    ) throws(PlistError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = markLength
        switch encoding {
        case .utf16(let bigEndian):
            let end = index + (bytes.count - index) / 2 * 2
            try appendUTF16(bytes, from: index, to: end, bigEndian: bigEndian, to: &output)
            index = end
            guard index == bytes.count else { throw PlistError(.invalidUTF16, at: index) }
        case .utf32(let bigEndian):
            while index + 3 < bytes.count {
                var scalar: UInt32 = 0
                for offset in 0..<4 {
                    scalar |= UInt32(bytes[index + offset]) << (8 * UInt32(bigEndian ? 3 - offset : offset))
                }
                guard scalar < 0x11_0000, scalar & 0xFFFF_F800 != 0xD800 else {
                    throw PlistError(.invalidUTF32, at: index)
                }
                appendUTF8(scalar, to: &output)
                index += 4
            }
            guard index == bytes.count else { throw PlistError(.invalidUTF32, at: index) }
        }
        return output
    }

    /// The string of the UTF-16 code units in `bytes[start..<end]`, as ``appendUTF16(_:from:to:bigEndian:to:)``
    /// reads them; `scratch` is room reused between strings.
    package static func string(
        utf16 bytes: Span<UInt8>, from start: Int, to end: Int, bigEndian: Bool, scratch: inout [UInt8]
    ) throws(PlistError) -> String {
        scratch.removeAll(keepingCapacity: true)
        try appendUTF16(bytes, from: start, to: end, bigEndian: bigEndian, to: &scratch)
        // SAFETY: `appendUTF16` writes only the UTF-8 forms of scalars below 0x110000 that are not
        // surrogates, which is valid UTF-8; so it is not validated again.
        return unsafe String(copying: UTF8Span(unchecked: scratch.span))
    }

    /// Appends the UTF-8 encoding of the Unicode scalar value `scalar` (below 0x110000).
    package static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        output.append(addingCapacity: 4) { (utf8: inout OutputSpan<UInt8>) in appendUTF8(scalar, to: &utf8) }
    }

    /// Appends the UTF-8 encoding of the Unicode scalar value `scalar` (below 0x110000).
    static func appendUTF8(_ scalar: UInt32, to output: inout OutputSpan<UInt8>) {
        if scalar < 0x80 {
            output.append(UInt8(scalar))
        } else if scalar < 0x800 {
            output.append(UInt8(0xC0 | scalar >> 6))
            output.append(UInt8(0x80 | scalar & 0x3F))
        } else if scalar < 0x10000 {
            output.append(UInt8(0xE0 | scalar >> 12))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        } else {
            output.append(UInt8(0xF0 | scalar >> 18))
            output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}
