internal import CLibXML2
import PlistCore

/// Reads XML property lists with libxml2's SAX2 parser over the bytes in memory, streaming the
/// events into an `XMLTreeBuilder`. All libxml2 code of the package lives here.
///
/// The parser runs with `XML_PARSE_NONET` and without `NOENT`, `DTDLOAD`, `XINCLUDE` or `HUGE`:
/// it never reads files or the network, entities other than the predefined and character ones
/// are refused (any DTD declaration is an error), so nothing in the input can amplify it.
enum XMLReader {
    static func read(_ bytes: Span<UInt8>, options: PlistReadOptions) throws(PlistError) -> Plist {
        var state = XMLParseState(builder: XMLTreeBuilder(options: options))
        try parse(bytes, options: options, into: &state)
        do throws(Rejection) {
            return try state.builder.finish()
        } catch {
            throw PlistError(error.kind, at: bytes.count)
        }
    }

    /// Where the value at `path` (or the deepest value on it) begins: the line, and the column
    /// where libxml2 finished reading its start tag.
    static func position(of path: [PlistPathStep], in bytes: Span<UInt8>, options: PlistReadOptions) -> TextPosition? {
        var builder = XMLTreeBuilder(options: options)
        builder.locator = PathLocator(path: path)
        var state = XMLParseState(builder: builder)
        try? parse(bytes, options: options, into: &state)
        return state.builder.locator?.mark
    }

    /// Runs libxml2 over `bytes`, its events going to `state`'s tree builder.
    private static func parse(
        _ bytes: Span<UInt8>, options: PlistReadOptions, into state: inout XMLParseState
    ) throws(PlistError) {
        guard !bytes.isEmpty else { throw PlistError(.emptyInput, at: 0) }
        // UTF-16 and UTF-32 (with or without a byte-order mark) are turned into UTF-8 here, and
        // libxml2 told to ignore the encoding the document declares; libxml2 handles the rest.
        if let (encoding, markLength) = UnicodeText.wideEncoding(of: bytes) {
            let utf8 = try UnicodeText.utf8(from: bytes, encoding: encoding, markLength: markLength)
            return try parseUTF8(utf8.span, options: options, ignoringDeclaredEncoding: true, into: &state)
        }
        try parseUTF8(bytes, options: options, ignoringDeclaredEncoding: false, into: &state)
    }

    /// Frees a parser and the document libxml2 builds to hold an internal subset, which is the
    /// caller's to free.
    private static func release(_ parser: xmlParserCtxtPtr) {
        if let document = unsafe parser.pointee.myDoc {
            unsafe xmlFreeDoc(document)
            unsafe parser.pointee.myDoc = nil
        }
        unsafe xmlFreeParserCtxt(parser)
    }

    /// Where the document starts in `bytes`, and the lines and columns skipped before it:
    /// CoreFoundation accepts white space before `<?xml`, which XML itself does not, so it is
    /// skipped (after a UTF-8 byte-order mark) and positions are reported in the original text.
    private static func documentStart(of bytes: Span<UInt8>) -> (start: Int, shift: TextShift) {
        let mark = TextCursor.markLength(of: bytes)
        let end = TextCursor.endOfSpace(in: bytes, from: mark)
        var skippedLines = 0
        var lineStart = mark
        for index in mark..<end where bytes[index] == 0x0A {
            skippedLines += 1
            lineStart = index + 1
        }
        let start = end > mark && end < bytes.count && bytes[end] == UInt8(ascii: "<") ? end : mark
        return (start, TextShift(lines: skippedLines, firstLineColumns: start == end ? end - lineStart : 0))
    }

    private static func parseUTF8(
        _ bytes: Span<UInt8>, options: PlistReadOptions, ignoringDeclaredEncoding: Bool,
        into state: inout XMLParseState
    ) throws(PlistError) {
        let (start, shift) = documentStart(of: bytes)
        state.shift = shift
        guard bytes.count - start <= Int(Int32.max) else {
            throw PlistError(.malformedXML("XML documents over 2 GiB are not supported"), at: 0)
        }

        raiseDepthLimit(to: options.maxDepth)
        plist_silence_xml_messages()
        var handler = unsafe saxHandler()
        let flags = XML_PARSE_NONET.rawValue | (ignoringDeclaredEncoding ? XML_PARSE_IGNORE_ENC.rawValue : 0)
        // SAFETY: `state`, `handler` and the input bytes stay in place for the whole parse, which
        // ends (and the parser context is freed, with its own handler restored) inside these
        // closures; callbacks reach `state` only through the pointer passed as user data.
        let created = unsafe withUnsafeMutablePointer(to: &state) { statePointer in
            unsafe withUnsafeMutablePointer(to: &handler) { handlerPointer in
                unsafe bytes.extracting(start...).withUnsafeBufferPointer { input in
                    unsafe input.withMemoryRebound(to: CChar.self) { characters in
                        guard
                            let parser = unsafe xmlCreateMemoryParserCtxt(
                                characters.baseAddress, Int32(characters.count))
                        else { return false }
                        let ownHandler = unsafe parser.pointee.sax
                        unsafe parser.pointee.sax = handlerPointer
                        unsafe parser.pointee.userData = UnsafeMutableRawPointer(statePointer)
                        _ = unsafe xmlCtxtUseOptions(parser, Int32(flags))
                        unsafe statePointer.pointee.parser = parser
                        _ = unsafe xmlParseDocument(parser)
                        unsafe statePointer.pointee.parser = nil
                        unsafe parser.pointee.sax = ownHandler
                        unsafe Self.release(parser)
                        return true
                    }
                }
            }
        }
        guard created else { throw PlistError(.malformedXML("out of memory"), at: 0) }
        if let error = state.error { throw state.shifted(error, by: start) }
    }

    /// Reads an XML property list that `read` hands over in chunks (an empty one at the end)
    /// with libxml2's push parser, and streams its values to `writer`, finishing it: memory
    /// follows the depth and the open containers, not the document. The grammar, scalars,
    /// dictionary rules and errors (with line and column) are `read(_:options:)`'s; the input
    /// must be UTF-8 (the encoding every writer of large files uses).
    static func convert(
        options: PlistReadOptions, to writer: BinaryPlistStreamWriter,
        reading read: () throws(PlistError) -> [UInt8]
    ) throws(PlistError) {
        var chunk = try read()
        guard !chunk.isEmpty else { throw PlistError(.emptyInput, at: 0) }
        if UnicodeText.wideEncoding(of: chunk.span) != nil {
            throw PlistError(
                .malformedXML("UTF-16 and UTF-32 documents are converted in memory, not streamed"), at: 0)
        }
        var state = XMLParseState(builder: XMLTreeBuilder(options: options, streamingTo: writer))
        state.openLines = []
        // As `parseUTF8`: a byte-order mark and white space before `<` are skipped (in the first chunk).
        let (start, shift) = documentStart(of: chunk.span)
        state.shift = shift
        raiseDepthLimit(to: options.maxDepth)
        plist_silence_xml_messages()
        var handler = unsafe saxHandler()
        var readError: PlistError?
        // SAFETY: `state` stays in place for the whole parse, which ends (and the parser context
        // is freed) inside this closure; libxml2 copies the handler; each chunk is only read
        // during its `xmlParseChunk`; callbacks reach `state` only through the user data.
        let created = unsafe withUnsafeMutablePointer(to: &state) { statePointer in
            guard
                let parser = unsafe xmlCreatePushParserCtxt(
                    &handler, UnsafeMutableRawPointer(statePointer), nil, 0, nil)
            else { return false }
            _ = unsafe xmlCtxtUseOptions(parser, Int32(XML_PARSE_NONET.rawValue))
            unsafe statePointer.pointee.parser = parser
            var first = true
            while true {
                unsafe chunk[(first ? start : 0)...].withUnsafeBufferPointer { input in
                    unsafe input.withMemoryRebound(to: CChar.self) { characters in
                        _ = unsafe xmlParseChunk(parser, characters.baseAddress, Int32(characters.count), 0)
                    }
                }
                first = false
                if unsafe statePointer.pointee.failed { break }
                do throws(PlistError) { chunk = try read() } catch {
                    readError = error
                    break
                }
                if chunk.isEmpty {
                    // libxml2's push parser reports a document that ends inside an element
                    // vaguely ("Extra content at the end of the document", or an element named
                    // by a cut tag): say what the in-memory parser says.
                    if let element = unsafe statePointer.pointee.builder.innermostElement,
                        let line = unsafe statePointer.pointee.openLines?.last
                    {
                        unsafe statePointer.pointee.failTruncated(inside: element, startingOnLine: line)
                    } else {
                        _ = unsafe xmlParseChunk(parser, nil, 0, 1)
                    }
                    break
                }
            }
            unsafe statePointer.pointee.parser = nil
            unsafe Self.release(parser)
            return true
        }
        guard created else { throw PlistError(.malformedXML("out of memory"), at: 0) }
        if let error = state.error { throw state.shifted(error, by: start) }
        if let readError { throw readError }
        do throws(Rejection) {
            try state.builder.finishStream()
        } catch {
            throw PlistError(error.kind, at: 0)
        }
    }

    /// libxml2 stops at 256 nested elements unless `XML_PARSE_HUGE` switches its limits off; the
    /// reader's own depth limit replaces that one, so libxml2's is raised (never lowered) to let
    /// valid files up to `maxDepth` through. The `<plist>` element adds one level.
    private static func raiseDepthLimit(to maxDepth: Int) {
        plist_raise_xml_depth_limit(UInt32(clamping: maxDepth + 2))
    }

    private static func saxHandler() -> xmlSAXHandler {
        var handler = unsafe xmlSAXHandler()
        unsafe handler.initialized = XML_SAX2_MAGIC
        unsafe handler.startElementNs = { context, name, prefix, _, _, _, _, _, _ in
            guard let context = unsafe context, let name = unsafe name else { return }
            unsafe XMLParseState.at(context).pointee.start(name, prefix: prefix)
        }
        unsafe handler.endElementNs = { context, name, _, _ in
            guard let context = unsafe context, let name = unsafe name else { return }
            unsafe XMLParseState.at(context).pointee.end(name)
        }
        unsafe handler.characters = { context, characters, length in
            guard let context = unsafe context, let characters = unsafe characters else { return }
            unsafe XMLParseState.at(context).pointee.characters(
                UnsafeBufferPointer(start: characters, count: Int(length)))
        }
        unsafe handler.ignorableWhitespace = unsafe handler.characters
        unsafe handler.cdataBlock = unsafe handler.characters
        unsafe handler.serror = { context, error in
            guard let context = unsafe context, let error = unsafe error else { return }
            unsafe XMLParseState.at(context).pointee.fail(error.pointee)
        }
        unsafe handler.entityDecl = { context, _, _, _, _, _ in
            guard let context = unsafe context else { return }
            unsafe XMLParseState.at(context).pointee.refuseDeclaration()
        }
        unsafe handler.elementDecl = { context, _, _, _ in
            guard let context = unsafe context else { return }
            unsafe XMLParseState.at(context).pointee.refuseDeclaration()
        }
        unsafe handler.attributeDecl = { context, _, _, _, _, _, _ in
            guard let context = unsafe context else { return }
            unsafe XMLParseState.at(context).pointee.refuseDeclaration()
        }
        unsafe handler.notationDecl = { context, _, _, _ in
            guard let context = unsafe context else { return }
            unsafe XMLParseState.at(context).pointee.refuseDeclaration()
        }
        unsafe handler.unparsedEntityDecl = { context, _, _, _, _ in
            guard let context = unsafe context else { return }
            unsafe XMLParseState.at(context).pointee.refuseDeclaration()
        }
        return unsafe handler
    }
}

/// What the callbacks work on: maps element names, forwards events to the tree builder, and
/// keeps the first error with its position. It lives on `XMLReader.parse`'s stack for the parse.
@safe private struct XMLParseState {
    var builder: XMLTreeBuilder
    /// The libxml2 parser while it runs, for positions and for stopping it.
    var parser: xmlParserCtxtPtr?
    var error: PlistError?
    /// Set with `error`; a Boolean is cheaper to test on every event than the optional error.
    var failed = false
    /// libxml2 interns element names, so each name arrives at one address: remember them.
    var names: [(address: UInt, element: XMLTreeBuilder.Element)] = []

    /// Streaming: the line where each open element starts.
    var openLines: [Int]?

    /// How positions in the text libxml2 reads map to the input, where white space was skipped.
    var shift = TextShift(lines: 0, firstLineColumns: 0)

    init(builder: XMLTreeBuilder) { self.builder = builder }

    /// `error` placed in the input, which has `start` bytes (and `shift`'s lines) before the
    /// text libxml2 read.
    func shifted(_ error: PlistError, by start: Int) -> PlistError {
        var error = error
        error.byteOffset = error.byteOffset.map { $0 + start }
        error.position = error.position.map(shift.apply)
        return error
    }

    static func at(_ context: UnsafeMutableRawPointer) -> UnsafeMutablePointer<XMLParseState> {
        unsafe context.assumingMemoryBound(to: XMLParseState.self)
    }

    /// An element opens: `name` without its namespace `prefix`, if it has one.
    mutating func start(_ name: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?) {
        guard !failed else { return }
        // `x:true` is no element of property lists, whatever namespace `x` names: Foundation's
        // and plistlib's parsers, which know no namespaces, refuse it as an unknown element.
        if let prefix = unsafe prefix {
            return fail(.unknownElement(unsafe String(cString: prefix) + ":" + String(cString: name)))
        }
        guard let element = unsafe element(named: name) else {
            return fail(.unknownElement(unsafe String(cString: name)))
        }
        let position = builder.locator == nil ? nil : parserPosition.map(shift.apply)
        do throws(Rejection) { try builder.start(element, at: position) } catch { return fail(error.kind) }
        if openLines != nil, let parser = unsafe parser { openLines?.append(Int(unsafe xmlSAX2GetLineNumber(parser))) }
    }

    mutating func end(_ name: UnsafePointer<xmlChar>) {
        guard !failed, let element = unsafe element(named: name) else { return }
        if openLines?.isEmpty == false { openLines?.removeLast() }
        do { try builder.end(element) } catch { fail(error.kind) }
    }

    mutating func characters(_ chunk: UnsafeBufferPointer<xmlChar>) {
        guard !failed else { return }
        do { try unsafe builder.characters(chunk) } catch { fail(error.kind) }
    }

    mutating func refuseDeclaration() { fail(.dtdDeclaration) }

    /// The input ended inside `element`, which starts on `line` (before `shift`).
    mutating func failTruncated(inside element: XMLTreeBuilder.Element, startingOnLine line: Int) {
        fail(.malformedXML("Premature end of data in tag \(element.rawValue) line \(line + shift.lines)"))
    }

    /// A libxml2 error (warnings are ignored).
    mutating func fail(_ libxmlError: xmlError) {
        guard !failed, unsafe libxmlError.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        var message = unsafe libxmlError.message.map { unsafe String(cString: $0) } ?? "error \(libxmlError.code)"
        while message.last?.isWhitespace == true { message.removeLast() }
        // Some messages quote the input on a second line: errors are one line.
        message = String(message.map { $0.isNewline ? " " : $0 })
        unsafe record(
            PlistError(
                .malformedXML(message), at: consumed,
                position: TextPosition(line: Int(libxmlError.line), column: max(1, Int(libxmlError.int2)))))
    }

    private mutating func fail(_ kind: PlistError.Kind) {
        guard !failed else { return }
        // Unshifted: `parse` shifts the error's position.
        let position = parserPosition
        if let parser = unsafe parser { unsafe xmlStopParser(parser) }
        record(PlistError(kind, at: consumed, position: position))
    }

    private mutating func record(_ error: PlistError) {
        self.error = error
        failed = true
    }

    /// Where libxml2 is in the text it reads (before `shift`).
    private var parserPosition: TextPosition? {
        guard let parser = unsafe parser else { return nil }
        return TextPosition(
            line: Int(unsafe xmlSAX2GetLineNumber(parser)), column: Int(unsafe xmlSAX2GetColumnNumber(parser)))
    }

    private var consumed: Int {
        guard let parser = unsafe parser else { return 0 }
        return Int(unsafe xmlByteConsumed(parser))
    }

    private mutating func element(named name: UnsafePointer<xmlChar>) -> XMLTreeBuilder.Element? {
        let address = UInt(bitPattern: name)
        for entry in names where entry.address == address { return entry.element }
        guard let element = XMLTreeBuilder.Element(rawValue: unsafe String(cString: name)) else { return nil }
        names.append((address, element))
        return element
    }
}

/// White space skipped before `<?xml` moves the positions libxml2 reports: by whole lines, and
/// on its first line by the columns skipped on the line where the document starts.
struct TextShift {
    var lines: Int
    var firstLineColumns: Int

    func apply(_ position: TextPosition) -> TextPosition {
        TextPosition(
            line: position.line + lines, column: position.column + (position.line == 1 ? firstLineColumns : 0))
    }
}

/// Finds, in an XML document read in chunks, what libxml2's push parser (which streaming reads
/// with) refuses while the in-memory reader takes it, so that such a document is read in
/// memory and gets the in-memory verdict:
/// - a NUL byte: libxml2 reading a document in memory ends it at a NUL after its last element
///   (what follows is ignored), where the push parser reports extra content;
/// - a character reference to a character XML 1.0 forbids (`&#8;`, `&#xFFFE;`): this package's
///   XML writer writes them, as CoreFoundation reads them, and `XMLScanner` reads them, where
///   libxml2 refuses them.
/// It looks at bytes only, so it also stops documents that have those bytes in comments or
/// CDATA sections: they are read in memory, with the same result.
package struct XMLStreamScreen {
    /// Whether nothing seen so far stops the document from streaming.
    package private(set) var admits = true
    private var state = State.text

    private enum State {
        case text, ampersand, hash, hexStart
        case decimal(UInt32)
        case hex(UInt32)
    }

    package init() {}

    /// Looks at the next `chunk` of the document.
    package mutating func scan(_ chunk: Span<UInt8>) {
        var index = 0
        while admits, index < chunk.count {
            let byte = chunk[index]
            index += 1
            if byte == 0 {
                admits = false
                return
            }
            switch state {
            case .text:
                break
            case .ampersand:
                state = byte == UInt8(ascii: "#") ? .hash : .text
            case .hash:
                if byte == UInt8(ascii: "x") {
                    state = .hexStart
                } else if let digit = Self.decimalDigit(byte) {
                    state = .decimal(digit)
                } else {
                    state = .text
                }
            case .hexStart:
                state = Self.hexDigit(byte).map { .hex($0) } ?? .text
            case .decimal(let value):
                if let digit = Self.decimalDigit(byte) {
                    state = .decimal(min(value * 10 + digit, 0x11_0000))
                } else {
                    end(value, at: byte)
                }
            case .hex(let value):
                if let digit = Self.hexDigit(byte) {
                    state = .hex(min(value << 4 | digit, 0x11_0000))
                } else {
                    end(value, at: byte)
                }
            }
            // An ampersand starts a reference whatever came before it.
            if byte == UInt8(ascii: "&"), case .text = state { state = .ampersand }
        }
    }

    /// A reference's digits ended at `byte`: when it is `;`, the reference names `value`.
    private mutating func end(_ value: UInt32, at byte: UInt8) {
        state = byte == UInt8(ascii: "&") ? .ampersand : .text
        guard byte == UInt8(ascii: ";") else { return }
        let isXMLCharacter =
            value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
            || (0xE000...0xFFFD).contains(value) || (0x1_0000...0x10_FFFF).contains(value)
        if !isXMLCharacter { admits = false }
    }

    private static func decimalDigit(_ byte: UInt8) -> UInt32? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? UInt32(byte - UInt8(ascii: "0")) : nil
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
