package import PlistCore

/// Character data of XML documents as XML 1.0 defines it: the references the scanner accepts
/// (the five predefined entities and numeric character references) and line-end handling.
extension XMLText {
    /// How many of eight bytes (the first in the low byte of `word`) are, from the first, ASCII
    /// text that needs no look: not below space (tab and line feed included, for simplicity),
    /// not `<`, `&` or `]`. 8 when all are.
    ///
    /// This runs for every eight bytes of text. Swift 6.3 does not inline PlistCore's `package`
    /// word tests (`XMLText.bytes(equalTo:in:)`) into this module, `@inlinable` or not, and
    /// calling them cost more than the scan itself; so the test is spelled out here.
    package static func plainLength(_ word: UInt64) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        func equal(_ byte: UInt8) -> UInt64 {
            let zeroWhereEqual = word ^ UInt64(byte) &* ones
            return (zeroWhereEqual &- ones) & ~zeroWhereEqual & highBits
        }
        let below = (word &- 0x20 &* ones) & ~word & highBits
        // Each test can flag a byte above a flagged one wrongly (a borrow), never below it, so
        // the lowest flag is exact.
        return ((word & highBits) | below | equal(0x3C) | equal(0x26) | equal(0x5D)).trailingZeroBitCount / 8
    }

    /// The character the reference starting with the `&` at `index` stands for, and where the
    /// reference ends; `nil` for anything else (an unknown entity, a malformed reference, a
    /// surrogate, a value past U+10FFFF). References to the characters XML 1.0 forbids (NUL,
    /// the other control characters, U+FFFE, U+FFFF) are read, as CoreFoundation reads them
    /// and as the XML writer writes those characters.
    static func reference(_ text: Span<UInt8>, at index: Int) -> (scalar: UInt32, end: Int)? {
        var position = index + 1
        guard position < text.count else { return nil }
        if text[position] == UInt8(ascii: "#") {
            position += 1
            let hexadecimal = position < text.count && text[position] == UInt8(ascii: "x")
            if hexadecimal { position += 1 }
            let digitsStart = position
            var scalar: UInt32 = 0
            while position < text.count, text[position] != UInt8(ascii: ";") {
                guard let digit = digit(text[position], hexadecimal: hexadecimal) else { return nil }
                scalar = scalar * (hexadecimal ? 16 : 10) + digit
                guard scalar <= 0x10FFFF else { return nil }
                position += 1
            }
            guard position < text.count, position > digitsStart, isCharacter(scalar) || isReferenceOnly(scalar)
            else { return nil }
            return (scalar, position + 1)
        }
        for entity in predefined where position + entity.length <= text.count {
            var name: UInt64 = 0
            for offset in 0..<entity.length { name |= UInt64(text[position + offset]) << (8 * offset) }
            if name == entity.name { return (entity.scalar, position + entity.length) }
        }
        return nil
    }

    /// The text with its references replaced and its line ends (CR LF, or a CR alone) made LF,
    /// as an XML parser reports character data. Invariant: the scanner checked every reference.
    static func unescaped(_ raw: Span<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            if byte == UInt8(ascii: "&"), let (scalar, end) = reference(raw, at: index) {
                UnicodeText.appendUTF8(scalar, to: &output)
                index = end
            } else if byte == 0x0D {
                output.append(0x0A)
                index += index + 1 < raw.count && raw[index + 1] == 0x0A ? 2 : 1
            } else {
                output.append(byte)
                index += 1
            }
        }
        return output
    }

    /// Whether XML 1.0 allows the character (its `Char` production).
    static func isCharacter(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// Whether the character is one XML 1.0 forbids that property lists still carry, as a
    /// character reference only: C0 controls but tab, line feed and carriage return, U+FFFE
    /// and U+FFFF. (Surrogates stay refused: a string cannot hold one alone.)
    static func isReferenceOnly(_ scalar: UInt32) -> Bool {
        scalar < 0x20 || scalar == 0xFFFE || scalar == 0xFFFF
    }

    /// The end of the UTF-8 sequence at `index` (its first byte 0x80 or above), if it is
    /// well formed and a character XML allows; else `nil`.
    static func endOfUTF8Character(_ text: Span<UInt8>, at index: Int) -> Int? {
        let first = text[index]
        let length: Int
        var scalar: UInt32
        switch first {
        case 0xC2...0xDF: (length, scalar) = (2, UInt32(first & 0x1F))
        case 0xE0...0xEF: (length, scalar) = (3, UInt32(first & 0x0F))
        case 0xF0...0xF4: (length, scalar) = (4, UInt32(first & 0x07))
        default: return nil
        }
        guard index + length <= text.count else { return nil }
        for offset in 1..<length {
            let byte = text[index + offset]
            guard byte & 0xC0 == 0x80 else { return nil }
            scalar = scalar << 6 | UInt32(byte & 0x3F)
        }
        // Overlong forms, surrogates and values past U+10FFFF are not UTF-8.
        let smallest: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard scalar >= smallest, isCharacter(scalar) else { return nil }
        return index + length
    }

    /// The predefined entities: the name and `;` as a little-endian word, their length, the character.
    private static let predefined: [(name: UInt64, length: Int, scalar: UInt32)] = [
        ("lt;", 0x3C), ("gt;", 0x3E), ("amp;", 0x26), ("quot;", 0x22), ("apos;", 0x27),
    ].map { (entity: (name: String, scalar: UInt32)) in
        let bytes = Array(entity.name.utf8)
        return (bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }, bytes.count, entity.scalar)
    }

    private static func digit(_ byte: UInt8, hexadecimal: Bool) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where hexadecimal: UInt32(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F") where hexadecimal: UInt32(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }
}
