import PlistCore

/// The document around the root value: the XML declaration, the doctype, the `plist` element's
/// attributes and the comments between elements.
extension XMLTableBuilder {
    mutating func document(_ bytes: Span<UInt8>) throws(Decline) {
        skipWhitespace(bytes)
        if starts(bytes, "<?xml") { try declaration(bytes) }
        var sawDoctype = false
        while true {
            skipWhitespace(bytes)
            if starts(bytes, "<!--") {
                try comment(bytes)
            } else if !sawDoctype, starts(bytes, "<!DOCTYPE") {
                try doctype(bytes)
                sawDoctype = true
            } else {
                break
            }
        }
        try expect(bytes, "<")
        switch try elementName(bytes) {
        case .plist:
            try plistAttributes(bytes)
            try misc(bytes)
            try expect(bytes, "<")
            guard case .value(let kind) = try elementName(bytes) else { throw Decline() }
            try values(bytes, kind)
            try misc(bytes)
            try expect(bytes, "</")
            guard case .plist = try elementName(bytes) else { throw Decline() }
            skipWhitespace(bytes)
            try expect(bytes, ">")
        case .value(let kind):
            try values(bytes, kind)
        }
        try misc(bytes)
        guard position == bytes.count, !nodes.isEmpty else { throw Decline() }
    }

    /// `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`, the last two optional.
    mutating func declaration(_ bytes: Span<UInt8>) throws(Decline) {
        position += 5
        var attributes = 0
        while true {
            let hadWhitespace = skipWhitespace(bytes)
            if starts(bytes, "?>") { break }
            guard hadWhitespace else { throw Decline() }
            let value: String
            switch attributes {
            case 0:
                try expect(bytes, "version")
                value = try attributeValue(bytes)
                guard value == "1.0" else { throw Decline() }
                attributes = 1
            case 1 where starts(bytes, "encoding"):
                position += 8
                value = try attributeValue(bytes)
                guard value.lowercased() == "utf-8" else { throw Decline() }
                attributes = 2
            case 1, 2:
                try expect(bytes, "standalone")
                value = try attributeValue(bytes)
                guard value == "yes" || value == "no" else { throw Decline() }
                attributes = 3
            default:
                throw Decline()
            }
        }
        guard attributes > 0 else { throw Decline() }
        position += 2
    }

    /// `= "value"` (or single quotes) after an attribute name: letters, digits, `.`, `-`, `_`.
    mutating func attributeValue(_ bytes: Span<UInt8>) throws(Decline) -> String {
        skipWhitespace(bytes)
        try expect(bytes, "=")
        skipWhitespace(bytes)
        guard position < bytes.count, bytes[position] == 0x22 || bytes[position] == 0x27 else { throw Decline() }
        let quote = bytes[position]
        position += 1
        var value = ""
        while position < bytes.count, bytes[position] != quote {
            let byte = bytes[position]
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2E, 0x2D, 0x5F: value.append(Character(Unicode.Scalar(byte)))
            default: throw Decline()
            }
            position += 1
        }
        try expect(bytes, quote == 0x22 ? "\"" : "'")
        return value
    }

    /// `<!DOCTYPE plist>`, with an optional `PUBLIC "id" "uri"` or `SYSTEM "uri"`.
    mutating func doctype(_ bytes: Span<UInt8>) throws(Decline) {
        position += 9
        guard skipWhitespace(bytes) else { throw Decline() }
        try expect(bytes, "plist")
        var hadWhitespace = skipWhitespace(bytes)
        if hadWhitespace, starts(bytes, "PUBLIC") {
            position += 6
            guard skipWhitespace(bytes) else { throw Decline() }
            try literal(bytes, allowing: Self.isPublicIdentifierCharacter)
            guard skipWhitespace(bytes) else { throw Decline() }
            try literal(bytes) { (0x20...0x7E).contains($0) }
            hadWhitespace = skipWhitespace(bytes)
        } else if hadWhitespace, starts(bytes, "SYSTEM") {
            position += 6
            guard skipWhitespace(bytes) else { throw Decline() }
            try literal(bytes) { (0x20...0x7E).contains($0) }
            skipWhitespace(bytes)
        }
        try expect(bytes, ">")
    }

    mutating func literal(_ bytes: Span<UInt8>, allowing allowed: (UInt8) -> Bool) throws(Decline) {
        guard position < bytes.count, bytes[position] == 0x22 || bytes[position] == 0x27 else { throw Decline() }
        let quote = bytes[position]
        position += 1
        while position < bytes.count, bytes[position] != quote {
            guard allowed(bytes[position]) else { throw Decline() }
            position += 1
        }
        guard position < bytes.count else { throw Decline() }
        position += 1
    }

    static func isPublicIdentifierCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x0D, 0x0A, 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        default: Array("-'()+,./:=?;!*#@$_%".utf8).contains(byte)
        }
    }

    /// The attributes of `<plist`: at most `version`, then `>`.
    mutating func plistAttributes(_ bytes: Span<UInt8>) throws(Decline) {
        var sawVersion = false
        while true {
            let hadWhitespace = skipWhitespace(bytes)
            if starts(bytes, ">") { break }
            guard hadWhitespace, !sawVersion, starts(bytes, "version") else { throw Decline() }
            position += 7
            _ = try attributeValue(bytes)
            sawVersion = true
        }
        position += 1
    }

    /// White space and comments.
    mutating func misc(_ bytes: Span<UInt8>) throws(Decline) {
        while true {
            skipWhitespace(bytes)
            guard position + 1 < bytes.count, bytes[position] == 0x3C, bytes[position + 1] == 0x21,
                starts(bytes, "<!--")
            else { return }
            try comment(bytes)
        }
    }

    /// `<!-- ... -->`, without `--` inside.
    mutating func comment(_ bytes: Span<UInt8>) throws(Decline) {
        var index = position + 4
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x2D, index + 1 < bytes.count, bytes[index + 1] == 0x2D {
                guard index + 2 < bytes.count, bytes[index + 2] == 0x3E else { throw Decline() }
                position = index + 3
                return
            }
            index = try nextCharacter(bytes, at: index)
        }
        throw Decline()
    }
}
