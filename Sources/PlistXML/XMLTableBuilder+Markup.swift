import PlistCore

/// The markup: element names, start and end tags, text, characters and white space, and the
/// limits' counts.
extension XMLTableBuilder {
    /// The name of the element whose `<` was just read.
    mutating func elementName(_ bytes: Span<UInt8>) throws(Decline) -> Element {
        // The name's bytes, big-endian in one integer: every name here is 3 to 7 lowercase letters.
        var packed: UInt64 = 0
        let start = position
        while position < bytes.count, bytes[position] &- 0x61 < 26, position - start < 8 {
            packed = packed << 8 | UInt64(bytes[position])
            position += 1
        }
        guard position - start <= 7 else { throw Decline() }
        switch packed {
        case 0x6B_6579: return .value(.key)
        case 0x6469_6374: return .value(.dictionary)
        case 0x7265_616C: return .value(.real)
        case 0x6461_7465: return .value(.date)
        case 0x6461_7461: return .value(.data)
        case 0x7472_7565: return .value(.true)
        case 0x61_7272_6179: return .value(.array)
        case 0x66_616C_7365: return .value(.false)
        case 0x70_6C69_7374: return .plist
        case 0x7374_7269_6E67: return .value(.string)
        case 0x69_6E74_6567_6572: return .value(.integer)
        default: throw Decline()
        }
    }

    /// The end of a start tag without attributes: `>` (false) or `/>` (true, an empty element).
    mutating func startTagEnd(_ bytes: Span<UInt8>) throws(Decline) -> Bool {
        skipWhitespace(bytes)
        guard position < bytes.count else { throw Decline() }
        if bytes[position] == 0x3E {
            position += 1
            return false
        }
        try expect(bytes, 0x2F)
        try expect(bytes, 0x3E)
        return true
    }

    /// `</name>` of a leaf of `kind`, at `position`.
    mutating func endTag(_ bytes: Span<UInt8>, _ kind: XMLTable.Kind) throws(Decline) {
        // The usual `</name>`, compared as two words.
        if position + 16 <= bytes.count, let tag = kind.endTag,
            bytes.word(at: position) & tag.masks.0 == tag.words.0,
            bytes.word(at: position + 8) & tag.masks.1 == tag.words.1
        {
            position += tag.length
            return
        }
        try expect(bytes, 0x3C)
        try expect(bytes, 0x2F)
        guard case .value(let name) = try elementName(bytes), name == kind else { throw Decline() }
        skipWhitespace(bytes)
        try expect(bytes, 0x3E)
    }

    /// The text of a leaf up to the next `<`: checks the characters and references, and says
    /// whether the text must be unescaped (references, carriage returns) and holds non-ASCII.
    mutating func text(_ bytes: Span<UInt8>) throws(Decline) -> XMLTable.Node.Flags {
        var flags: XMLTable.Node.Flags = []
        var index = position
        while index < bytes.count {
            // Eight bytes at a time up to the first that needs a look.
            if index + 8 <= bytes.count {
                let plain = XMLText.plainLength(bytes.word(at: index))
                index += plain
                if plain == 8 { continue }
            }
            let byte = bytes[index]
            // Letters and most punctuation (above `<`, not `]`, not beyond ASCII), then digits,
            // space and the rest below `<` but `&`: everything else is rare.
            if byte &- 0x3D < 0x43, byte != 0x5D {
                index += 1
                continue
            }
            if byte &- 0x20 < 0x1C, byte != 0x26 {
                index += 1
                continue
            }
            if byte == 0x3C { break }
            if byte == 0x26 {
                guard let (_, end) = XMLText.reference(bytes, at: index) else { throw Decline() }
                flags.insert(.escaped)
                index = end
            } else if byte == 0x5D {
                // `]]>` may not appear in text.
                if index + 2 < bytes.count, bytes[index + 1] == 0x5D, bytes[index + 2] == 0x3E { throw Decline() }
                index += 1
            } else if byte == 0x09 || byte == 0x0A {
                index += 1
            } else if byte == 0x0D {
                flags.insert(.escaped)
                index += 1
            } else if byte < 0x20 {
                throw Decline()
            } else {
                guard let end = XMLText.endOfUTF8Character(bytes, at: index) else { throw Decline() }
                flags.insert(.nonASCII)
                index = end
            }
        }
        guard index < bytes.count else { throw Decline() }
        position = index
        return flags
    }

    /// The index after the character at `index`, if XML allows it.
    func nextCharacter(_ bytes: Span<UInt8>, at index: Int) throws(Decline) -> Int {
        let byte = bytes[index]
        if byte >= 0x20 && byte < 0x80 || byte == 0x09 || byte == 0x0A || byte == 0x0D { return index + 1 }
        guard byte >= 0x80, let end = XMLText.endOfUTF8Character(bytes, at: index) else { throw Decline() }
        return end
    }

    @discardableResult
    mutating func skipWhitespace(_ bytes: Span<UInt8>) -> Bool {
        let start = position
        position = TextCursor.endOfSpace(in: bytes, from: position)
        return position > start
    }

    func starts(_ bytes: Span<UInt8>, _ text: String) -> Bool {
        guard position + text.utf8.count <= bytes.count else { return false }
        for (offset, byte) in text.utf8.enumerated() where bytes[position + offset] != byte { return false }
        return true
    }

    mutating func expect(_ bytes: Span<UInt8>, _ text: String) throws(Decline) {
        guard starts(bytes, text) else { throw Decline() }
        position += text.utf8.count
    }

    mutating func expect(_ bytes: Span<UInt8>, _ byte: UInt8) throws(Decline) {
        guard position < bytes.count, bytes[position] == byte else { throw Decline() }
        position += 1
    }

    mutating func count(values: Int) throws(Decline) {
        do throws(PlistError) { try budget.count(objects: values, at: position) } catch { throw Decline() }
    }

    /// Counts raw text: at least what the reader counts (references and base64 shrink it).
    mutating func count(content: Int) throws(Decline) {
        do throws(PlistError) { try budget.count(contentBytes: content, at: position) } catch { throw Decline() }
    }
}

extension XMLTable.Kind {
    /// `</name>` of a leaf of this kind as two little-endian words, the masks of its bytes in
    /// them, and its length; `nil` for containers and Booleans. Constants, not a table: the
    /// table's lazy initialization was checked on every leaf. (A test derives them from the names.)
    package var endTag: (words: (UInt64, UInt64), masks: (UInt64, UInt64), length: Int)? {
        switch self {
        case .key: ((0x3E79_656B_2F3C, 0), (0xFFFF_FFFF_FFFF, 0), 6)
        case .string: ((0x676E_6972_7473_2F3C, 0x3E), (.max, 0xFF), 9)
        case .integer: ((0x6567_6574_6E69_2F3C, 0x3E72), (.max, 0xFFFF), 10)
        case .real: ((0x3E_6C61_6572_2F3C, 0), (0xFF_FFFF_FFFF_FFFF, 0), 7)
        case .date: ((0x3E_6574_6164_2F3C, 0), (0xFF_FFFF_FFFF_FFFF, 0), 7)
        case .data: ((0x3E_6174_6164_2F3C, 0), (0xFF_FFFF_FFFF_FFFF, 0), 7)
        case .dictionary, .array, .true, .false: nil
        }
    }
}
