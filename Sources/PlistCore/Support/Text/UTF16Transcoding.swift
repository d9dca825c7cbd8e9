/// UTF-16 to UTF-8 in bulk: the text of binary property-list strings (`0x6n` objects) and of
/// whole documents in UTF-16. Runs of four ASCII units are checked and written as one word;
/// other units are written without a bounds check per byte. Its reference is the standard
/// library's UTF-16 parser (`UTF16TranscodingTests` compares them on random and invalid text).
extension UnicodeText {
    /// Appends the UTF-8 form of the UTF-16 code units in `bytes[start..<end]` (an even number of
    /// bytes), rejecting unpaired surrogates.
    /// - Throws: `PlistError` with `.invalidUTF16` and the offset of the bad unit in `bytes`.
    package static func appendUTF16(
        _ bytes: Span<UInt8>, from start: Int, to end: Int, bigEndian: Bool, to output: inout [UInt8]
    ) throws(PlistError) {
        precondition(0 <= start && start <= end && end <= bytes.count && (end - start) % 2 == 0)
        guard start < end else { return }
        var badUnit: Int?
        // A unit gives at most 3 bytes, a surrogate pair 4: room for all, reserved once.
        output.append(addingCapacity: (end - start) / 2 * 3) { (utf8: inout OutputSpan<UInt8>) in
            // SAFETY: `transcode` reads `source[start..<end]`, inside `bytes` (checked above), and
            // writes at most 3 bytes per unit after the `count` initialized bytes of `buffer`,
            // whose free capacity is 3 bytes per unit; it returns how many bytes are initialized.
            unsafe utf8.withUnsafeMutableBufferPointer { buffer, count in
                unsafe bytes.withUnsafeBytes { source in
                    (count, badUnit) = unsafe transcode(
                        source.baseAddress!, start, end, bigEndian: bigEndian, into: buffer.baseAddress!, at: count)
                }
            }
        }
        if let badUnit { throw PlistError(.invalidUTF16, at: badUnit) }
    }

    /// Writes the UTF-8 form of the units at `source[start..<end]` at `output + written`: how
    /// many bytes `output` then holds, and the offset of the first unpaired surrogate (where it
    /// stopped) if there is one.
    private static func transcode(
        _ source: UnsafeRawPointer, _ start: Int, _ end: Int, bigEndian: Bool,
        into output: UnsafeMutablePointer<UInt8>, at written: Int
    ) -> (written: Int, badUnit: Int?) {
        var written = written
        var position = start
        func unit(_ at: Int) -> UInt32 {
            let raw = unsafe source.loadUnaligned(fromByteOffset: at, as: UInt16.self)
            return UInt32(bigEndian ? UInt16(bigEndian: raw) : UInt16(littleEndian: raw))
        }
        // In a little-endian word of four units, the bits that must be clear for all four to be
        // ASCII: a unit's high byte, and bit 7 of its low byte.
        let nonASCII: UInt64 = bigEndian ? 0x80FF_80FF_80FF_80FF : 0xFF80_FF80_FF80_FF80
        while position < end {
            if position + 8 <= end {
                let word = UInt64(littleEndian: unsafe source.loadUnaligned(fromByteOffset: position, as: UInt64.self))
                if word & nonASCII == 0 {
                    // The four low bytes, packed: [c0, 0, c1, 0, c2, 0, c3, 0] becomes [c0, c1, c2, c3].
                    let low = bigEndian ? word >> 8 : word
                    let pairs = low | low >> 8
                    let packed = UInt32(truncatingIfNeeded: pairs & 0xFFFF | pairs >> 16 & 0xFFFF_0000)
                    unsafe UnsafeMutableRawPointer(output + written).storeBytes(
                        of: packed.littleEndian, as: UInt32.self)
                    written += 4
                    position += 8
                    continue
                }
            }
            var scalar = unit(position)
            position += 2
            if scalar < 0x80 {
                unsafe output[written] = UInt8(scalar)
                written += 1
            } else if scalar < 0x800 {
                unsafe output[written] = UInt8(0xC0 | scalar >> 6)
                unsafe output[written + 1] = UInt8(0x80 | scalar & 0x3F)
                written += 2
            } else if scalar & 0xF800 != 0xD800 {
                unsafe output[written] = UInt8(0xE0 | scalar >> 12)
                unsafe output[written + 1] = UInt8(0x80 | scalar >> 6 & 0x3F)
                unsafe output[written + 2] = UInt8(0x80 | scalar & 0x3F)
                written += 3
            } else {
                guard scalar < 0xDC00, position + 2 <= end else { return (written, position - 2) }
                let low = unit(position)
                guard low & 0xFC00 == 0xDC00 else { return (written, position - 2) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10 | (low - 0xDC00))
                position += 2
                unsafe output[written] = UInt8(0xF0 | scalar >> 18)
                unsafe output[written + 1] = UInt8(0x80 | scalar >> 12 & 0x3F)
                unsafe output[written + 2] = UInt8(0x80 | scalar >> 6 & 0x3F)
                unsafe output[written + 3] = UInt8(0x80 | scalar & 0x3F)
                written += 4
            }
        }
        return (written, nil)
    }
}
