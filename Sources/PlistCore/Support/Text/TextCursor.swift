/// The reading position in a text format's UTF-8 text, one for the JSON and OpenStep readers:
/// the text (transcoded from UTF-16 or UTF-32, after a byte-order mark), the limits' budget, the
/// errors (byte offset, line and column), and the white space JSON and XML share. The XML
/// readers, which read the bytes in place, use its byte-order mark and white space rules.
package struct TextCursor {
    /// The UTF-8 text.
    package let text: [UInt8]
    /// Where the content starts (after a byte-order mark); lines and columns count from here.
    package let start: Int
    /// The byte being read.
    package var index: Int
    package var budget: ReadBudget

    /// A cursor at the start of `input`, transcoded to UTF-8 when it is UTF-16 or UTF-32.
    /// - Throws: `PlistError` for empty input or bad UTF-16 or UTF-32.
    package init(input: [UInt8], options: PlistReadOptions) throws(PlistError) {
        (text, start) = try UnicodeText.utf8Text(of: input)
        index = start
        budget = ReadBudget(options)
    }

    // MARK: Errors

    /// An error of `kind` at byte `offset`, with its line and column.
    package func error(_ kind: PlistError.Kind, at offset: Int) -> PlistError {
        PlistError(kind, at: offset, position: TextPosition(of: offset, in: text, from: start))
    }

    /// `error` (from the budget) with its line and column.
    package func located(_ error: PlistError) -> PlistError {
        self.error(error.kind, at: error.byteOffset ?? 0)
    }

    /// A short, printable description of the text at `offset` for messages.
    package func found(at offset: Int) -> String {
        guard offset < text.count else { return "the end" }
        let byte = text[offset]
        if byte >= 0x21 && byte < 0x7F { return "`" + String(UnicodeScalar(byte)) + "`" }
        let digits = String(byte, radix: 16, uppercase: true)
        return "byte 0x" + (digits.count == 1 ? "0" + digits : digits)
    }

    /// The byte at the cursor, moving past it.
    /// - Throws: a truncated `what`, the value that starts at `start`, at the end of the text.
    package mutating func take(_ what: String, startingAt start: Int) throws(PlistError) -> UInt8 {
        guard index < text.count else { throw error(.truncated(what: what), at: start) }
        defer { index += 1 }
        return text[index]
    }

    // MARK: Limits

    /// Counts a value of `added` bytes of string or data content.
    package mutating func count(contentBytes added: Int, at offset: Int) throws(PlistError) {
        do throws(PlistError) { try budget.countValue(contentBytes: added, at: offset) } catch { throw located(error) }
    }

    /// Counts a key's bytes (a key is no value of its own).
    package mutating func add(contentBytes added: Int, at offset: Int) throws(PlistError) {
        do throws(PlistError) { try budget.count(contentBytes: added, at: offset) } catch { throw located(error) }
    }

    // MARK: Byte-order mark and white space

    /// Skips white space as JSON and XML define it.
    package mutating func skipSpace() { index = Self.endOfSpace(in: text.span, from: index) }

    /// Skips white space inside a `what` that starts at `start`, which goes on after it.
    /// - Throws: a truncated `what` at the end of the text.
    package mutating func skipSpace(inside what: String, startingAt start: Int) throws(PlistError) {
        skipSpace()
        guard index < text.count else { throw error(.truncated(what: what), at: start) }
    }

    /// Whether `byte` is white space in JSON and XML: space, tab, line feed, carriage return.
    @inlinable @inline(__always)
    package static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Where the white space (`isSpace`) from `index` in `bytes` ends.
    @inlinable
    package static func endOfSpace(in bytes: Span<UInt8>, from index: Int) -> Int {
        var end = index
        while end < bytes.count, isSpace(bytes[end]) { end += 1 }
        return end
    }

    /// The length of the UTF-8 byte-order mark `bytes` begins with: 3, or 0 when there is none.
    package static func markLength(of bytes: Span<UInt8>) -> Int {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }
}
