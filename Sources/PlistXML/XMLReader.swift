internal import CLibXML2
import PlistCore

/// Reads XML property lists with libxml2's SAX2 push parser, streaming the events into an
/// `XMLTreeBuilder`. All libxml2 and pointer code of the package lives in this file.
///
/// The parser runs with `XML_PARSE_NONET` and without `NOENT`, `DTDLOAD`, `XINCLUDE` or `HUGE`:
/// it never reads files or the network, entities other than the predefined and character ones
/// are refused (any DTD declaration is an error), so nothing in the input can amplify it.
enum XMLReader {
    /// Bytes handed to libxml2 per call.
    static let chunkSize = 1 << 20

    static func read(_ bytes: Span<UInt8>, options: PlistReadOptions) throws(PlistError) -> Plist {
        guard !bytes.isEmpty else { throw PlistError(.emptyInput, at: 0) }
        // UTF-16 and UTF-32 (with or without a byte-order mark) are turned into UTF-8 here, and
        // libxml2 told to ignore the encoding the document declares; libxml2 handles the rest.
        if let (encoding, markLength) = UnicodeText.wideEncoding(of: bytes) {
            let utf8 = try UnicodeText.utf8(from: bytes, encoding: encoding, markLength: markLength)
            return try parse(utf8.span, options: options, ignoringDeclaredEncoding: true)
        }
        return try parse(bytes, options: options, ignoringDeclaredEncoding: false)
    }

    private static func parse(
        _ bytes: Span<UInt8>, options: PlistReadOptions, ignoringDeclaredEncoding: Bool
    ) throws(PlistError) -> Plist {
        // CoreFoundation accepts white space before `<?xml`, which XML itself does not: skip it
        // (after a UTF-8 byte-order mark) and report positions in the original text.
        var start = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
        var skippedLines = 0
        var lineStart = start
        var index = start
        while index < bytes.count, isXMLWhitespace(bytes[index]) {
            if bytes[index] == 0x0A {
                skippedLines += 1
                lineStart = index + 1
            }
            index += 1
        }
        if index > start, index < bytes.count, bytes[index] == UInt8(ascii: "<") { start = index }
        let skip = Skipped(lines: skippedLines, columns: start == index ? index - lineStart : 0, bytes: start)

        let sink = XMLSink(options: options)
        raiseDepthLimit(to: options.maxDepth)
        plist_silence_xml_messages()
        var handler = unsafe saxHandler()
        // SAFETY: `sink` outlives the parser context (freed below, inside `withExtendedLifetime`);
        // libxml2 copies the handler struct; every pointer handed to it is valid for the call.
        return try withExtendedLifetime(sink) { () throws(PlistError) -> Plist in
            let context = unsafe Unmanaged.passUnretained(sink).toOpaque()
            guard let parser = unsafe xmlCreatePushParserCtxt(&handler, context, nil, 0, nil) else {
                throw PlistError(.malformedXML("out of memory"), at: 0)
            }
            defer { unsafe xmlFreeParserCtxt(parser) }
            let flags = XML_PARSE_NONET.rawValue | (ignoringDeclaredEncoding ? XML_PARSE_IGNORE_ENC.rawValue : 0)
            _ = unsafe xmlCtxtUseOptions(parser, Int32(flags))
            unsafe sink.parser = parser
            var offset = start
            repeat {
                let end = min(bytes.count, offset + chunkSize)
                let isLast = end == bytes.count
                unsafe bytes.extracting(offset..<end).withUnsafeBufferPointer { chunk in
                    _ = unsafe chunk.withMemoryRebound(to: CChar.self) { characters in
                        unsafe xmlParseChunk(parser, characters.baseAddress, Int32(characters.count), isLast ? 1 : 0)
                    }
                }
                offset = end
                if sink.error != nil { break }
            } while offset < bytes.count
            if var error = sink.error {
                error.byteOffset += skip.bytes
                if let position = error.position {
                    error.position = TextPosition(
                        line: position.line + skip.lines,
                        column: position.column + (position.line == 1 ? skip.columns : 0))
                }
                throw error
            }
            do throws(Rejection) {
                return try sink.builder.finish()
            } catch {
                throw PlistError(error.kind, at: bytes.count)
            }
        }
    }

    private struct Skipped {
        var lines: Int
        var columns: Int
        var bytes: Int
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
        unsafe handler.startElementNs = { context, name, _, _, _, _, _, _, _ in
            guard let context = unsafe context, let name = unsafe name else { return }
            unsafe XMLSink.from(context).start(name)
        }
        unsafe handler.endElementNs = { context, name, _, _ in
            guard let context = unsafe context, let name = unsafe name else { return }
            unsafe XMLSink.from(context).end(name)
        }
        unsafe handler.characters = { context, characters, length in
            guard let context = unsafe context, let characters = unsafe characters else { return }
            unsafe XMLSink.from(context).characters(UnsafeBufferPointer(start: characters, count: Int(length)))
        }
        unsafe handler.ignorableWhitespace = unsafe handler.characters
        unsafe handler.cdataBlock = unsafe handler.characters
        unsafe handler.serror = { context, error in
            guard let context = unsafe context, let error = unsafe error else { return }
            unsafe XMLSink.from(context).fail(error.pointee)
        }
        unsafe handler.entityDecl = { context, _, _, _, _, _ in
            guard let context = unsafe context else { return }
            unsafe XMLSink.from(context).refuseDeclaration()
        }
        unsafe handler.elementDecl = { context, _, _, _ in
            guard let context = unsafe context else { return }
            unsafe XMLSink.from(context).refuseDeclaration()
        }
        unsafe handler.attributeDecl = { context, _, _, _, _, _, _ in
            guard let context = unsafe context else { return }
            unsafe XMLSink.from(context).refuseDeclaration()
        }
        unsafe handler.notationDecl = { context, _, _, _ in
            guard let context = unsafe context else { return }
            unsafe XMLSink.from(context).refuseDeclaration()
        }
        unsafe handler.unparsedEntityDecl = { context, _, _, _, _ in
            guard let context = unsafe context else { return }
            unsafe XMLSink.from(context).refuseDeclaration()
        }
        return unsafe handler
    }
}

/// Receives libxml2's callbacks: maps element names, forwards events to the tree builder, and
/// keeps the first error with its position. Its one pointer, the parser, lives only while
/// `XMLReader` parses, which holds the sink alive for exactly that long.
@safe private final class XMLSink {
    var builder: XMLTreeBuilder
    /// The libxml2 parser, set once it exists, for positions and for stopping it.
    var parser: xmlParserCtxtPtr?
    var error: PlistError?
    /// libxml2 interns element names, so each name arrives at one address: remember them.
    private var names: [(address: UInt, element: XMLTreeBuilder.Element)] = []

    init(options: PlistReadOptions) { builder = XMLTreeBuilder(options: options) }

    static func from(_ context: UnsafeMutableRawPointer) -> XMLSink {
        unsafe Unmanaged<XMLSink>.fromOpaque(context).takeUnretainedValue()
    }

    func start(_ name: UnsafePointer<xmlChar>) {
        guard error == nil else { return }
        guard let element = unsafe element(named: name) else {
            return fail(.unknownElement(unsafe String(cString: name)))
        }
        do { try builder.start(element) } catch { fail(error.kind) }
    }

    func end(_ name: UnsafePointer<xmlChar>) {
        guard error == nil, let element = unsafe element(named: name) else { return }
        do { try builder.end(element) } catch { fail(error.kind) }
    }

    func characters(_ chunk: UnsafeBufferPointer<xmlChar>) {
        guard error == nil else { return }
        do { try unsafe builder.characters(chunk) } catch { fail(error.kind) }
    }

    func refuseDeclaration() { fail(.dtdDeclaration) }

    /// A libxml2 error (warnings are ignored).
    func fail(_ libxmlError: xmlError) {
        guard error == nil, unsafe libxmlError.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        var message = unsafe libxmlError.message.map { unsafe String(cString: $0) } ?? "error \(libxmlError.code)"
        while message.last?.isWhitespace == true { message.removeLast() }
        error = unsafe PlistError(
            .malformedXML(message), at: consumed,
            position: TextPosition(line: Int(libxmlError.line), column: max(1, Int(libxmlError.int2))))
    }

    private func fail(_ kind: PlistError.Kind) {
        guard error == nil else { return }
        var position: TextPosition?
        if let parser = unsafe parser {
            position = TextPosition(
                line: Int(unsafe xmlSAX2GetLineNumber(parser)), column: Int(unsafe xmlSAX2GetColumnNumber(parser)))
            unsafe xmlStopParser(parser)
        }
        error = PlistError(kind, at: consumed, position: position)
    }

    private var consumed: Int {
        guard let parser = unsafe parser else { return 0 }
        return Int(unsafe xmlByteConsumed(parser))
    }

    private func element(named name: UnsafePointer<xmlChar>) -> XMLTreeBuilder.Element? {
        let address = UInt(bitPattern: name)
        for entry in names where entry.address == address { return entry.element }
        guard let element = XMLTreeBuilder.Element(rawValue: unsafe String(cString: name)) else { return nil }
        names.append((address, element))
        return element
    }
}
