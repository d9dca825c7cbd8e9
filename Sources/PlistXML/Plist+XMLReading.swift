public import PlistCore

extension Plist {
    /// Reads an XML property list (UTF-8, UTF-16 or UTF-32, as its byte-order mark or
    /// declaration says).
    /// - Throws: `PlistError` with the line and column of the problem: malformed XML, an unknown
    ///   or misplaced element, a key without a value, a bad number or date, a DTD declaration,
    ///   a limit exceeded, ...
    public init(xml bytes: Span<UInt8>, options: PlistReadOptions = .init()) throws(PlistError) {
        // The documents real writers produce are read by the pure-Swift scanner, several times
        // faster; libxml2 reads everything it declines, and gives every error.
        if let value = XMLScanner.plist(of: bytes, options: options) {
            self = value
            return
        }
        self = try XMLReader.read(bytes, options: options)
    }

    /// Reads an XML property list.
    /// - Throws: `PlistError` with the line and column of the problem.
    public init(xml bytes: [UInt8], options: PlistReadOptions = .init()) throws(PlistError) {
        try self.init(xml: bytes.span, options: options)
    }
}

extension Plist {
    /// The date that `text` spells as an XML `<date>` does (`2026-01-01T00:00:00Z`), read by
    /// the XML readers' own parser with `Plist(xml:)`'s rules; nil when it spells none. The
    /// one reader of dates typed as text (plistconv's `-date`, PlistBuddy's date values).
    package static func date(xmlText text: String) -> Plist? {
        (try? XMLScalars.date(Array(text.utf8).span, rules: PlistReadOptions().rules)).map(Plist.date)
    }

    /// Where the value at `path`, or the deepest value on it, begins in an XML property list
    /// that reads: its line, and the column where its start tag ends.
    package static func position(of path: [PlistPathStep], inXML bytes: Span<UInt8>, options: PlistReadOptions)
        -> TextPosition?
    {
        XMLReader.position(of: path, in: bytes, options: options)
    }
}

extension BinaryPlistStreamWriter {
    /// Reads an XML property list that `read` hands over in chunks (an empty one at the end)
    /// and writes it as a binary property list, finishing this writer, in memory that follows
    /// the document's depth and open containers, not its size. The value written is the one
    /// `Plist(xml:options:)` reads, with the same errors (line and column); the input must be
    /// UTF-8.
    /// - Throws: `PlistError`: the reader's errors, the writer's, or what `read` throws.
    package func convertXML(
        options: PlistReadOptions, reading read: () throws(PlistError) -> [UInt8]
    ) throws(PlistError) {
        try XMLReader.convert(options: options, to: self, reading: read)
    }
}
