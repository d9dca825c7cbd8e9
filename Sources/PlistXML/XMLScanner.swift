package import PlistCore

/// Indexes XML property lists into an `XMLTable` without libxml2, for the documents real
/// writers produce; it declines everything else, and the libxml2 reader reads those (and gives
/// every error message).
///
/// It accepts exactly: UTF-8 without a byte-order mark (white space before the first `<` is
/// skipped, as the reader skips it); an optional declaration `<?xml version="1.0"` with
/// optional `encoding="UTF-8"` (any case) and `standalone`; comments; a `<!DOCTYPE plist>`
/// with an optional `PUBLIC` or `SYSTEM` identifier and no internal subset; a `<plist>` element
/// with at most a `version` attribute (or a value element as the root); the elements `dict`,
/// `array`, `key`, `string`, `integer`, `real`, `date`, `data`, `true`, `false` without
/// attributes, placed as the property-list grammar requires, in start-and-end or empty form;
/// white space and comments between elements; text with the five predefined entities,
/// numeric character references and any character XML allows. Leaf values must read as the
/// libxml2 reader reads them (`XMLScalars`), dictionaries must not repeat a key (but for
/// `plist(of:options:)`, a key escaped or beyond ASCII, which its tree keeps in its first place
/// with its last value, as the libxml2 reader does), and the document must stay within
/// `maxDepth`, `maxObjects` and `maxContentBytes`.
///
/// It declines (returns `nil`) anything else: CDATA sections, processing instructions, an
/// internal DTD subset, other encodings, UTF-16 and byte-order marks, unknown entities,
/// unexpected attributes or elements, comments inside leaf elements, malformed markup,
/// invalid UTF-8 or characters XML forbids (raw: references to them are read, as CoreFoundation
/// reads them), limits exceeded, and for `table(of:options:)` a `CF$UID` dictionary (a UID,
/// which `plist(of:options:)` reads).
/// Nothing it accepts is refused by the libxml2 reader, and it gives the values that reader
/// gives, with one exception: references to the characters XML 1.0 forbids (`&#8;`), which
/// libxml2 refuses and CoreFoundation reads; for those the scanner is the reader (the tests
/// compare it with libxml2 reading stand-in characters in their place). It keeps its own stack
/// of open elements, so deep nesting cannot overflow the call stack.
package enum XMLScanner {
    /// The value of the document in `bytes` (which it copies), or `nil` when the document is
    /// not one this scanner reads.
    package static func plist(of bytes: Span<UInt8>, options: PlistReadOptions) -> Plist? {
        table(of: [UInt8](copying: bytes), options: options, isForTree: true)?.plist()
    }

    /// The table of `document` (kept, not copied), or `nil` when the document is not one this
    /// scanner reads.
    package static func table(of document: [UInt8], options: PlistReadOptions) -> XMLTable? {
        table(of: document, options: options, isForTree: false)
    }

    /// The table; when `isForTree`, for `XMLTable.plist()` alone (see `XMLTableBuilder.isForTree`).
    private static func table(of document: [UInt8], options: PlistReadOptions, isForTree: Bool) -> XMLTable? {
        let bytes = document.span
        guard bytes.count <= Int(Int32.max) else { return nil }
        var scan = XMLTableBuilder(options: options)
        scan.isForTree = isForTree
        // Room for a node per 16 bytes: more than documents hold (pages never touched cost nothing).
        scan.nodes = [XMLTable.Node](largeCapacity: bytes.count / 16)
        scan.children = [Int32](largeCapacity: bytes.count / 16)
        scan.keyPrefixes = [UInt64](largeCapacity: bytes.count / 16)
        do throws(XMLTableBuilder.Decline) {
            try scan.document(bytes)
        } catch {
            return nil
        }
        return XMLTable(
            document: document, nodes: scan.nodes, children: scan.children, keyPrefixes: scan.keyPrefixes,
            keyEntries: scan.keyEntries, containerStarts: scan.containerStarts, budget: ReadBudget(options))
    }
}
