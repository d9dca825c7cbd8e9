import Foundation
import PropertyBased
import TestSupport
import Testing

@testable import PlistCore
@testable import PlistXML

/// Streaming XML to binary (libxml2's push parser into `BinaryPlistStreamWriter`) reads every
/// document to the value the in-memory reader gives, in chunks of any size, with its rules
/// (repeated keys, `CF$UID`, white space) and its errors at the same line and column.
@Suite struct XMLBinaryStreamTests {
    /// The binary file streamed from `xml`, handed over in chunks of `chunk` bytes.
    static func streamed(_ xml: [UInt8], chunk: Int = 1 << 20, options: PlistReadOptions = .init()) throws(PlistError)
        -> [UInt8]
    {
        var out: [UInt8] = []
        let writer = BinaryPlistStreamWriter { piece in out += piece }
        var offset = 0
        try writer.convertXML(options: options) { () throws(PlistError) -> [UInt8] in
            let end = min(xml.count, offset + chunk)
            defer { offset = end }
            return Array(xml[offset..<end])
        }
        return out
    }

    static func document(_ body: String, before: String = "") -> [UInt8] {
        Array(
            (before + "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n\(body)\n</plist>\n").utf8)
    }

    /// Both readers agree on `xml`: the same value, or errors with the same code and position.
    static func agree(_ xml: [UInt8], chunk: Int = 1 << 20, sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = Result { () throws(PlistError) in try Plist(xml: xml) }
        let actual = Result { () throws(PlistError) in try Plist(binary: try streamed(xml, chunk: chunk)) }
        switch (expected, actual) {
        case (.success(let value), .success(let back)):
            #expect(
                back.isIdentical(to: value), "\(String(decoding: xml, as: UTF8.self))", sourceLocation: sourceLocation)
        case (.success, .failure(let streamedError)) where streamedError.message.contains("xmlParseCharRef"):
            // A reference to a character XML 1.0 forbids (`&#8;`, which our writer uses for
            // control characters) is read by the scanner but not by libxml2, which streaming
            // uses: a documented limit (COMPATIBILITY.md).
            #expect(xml.contains(UInt8(ascii: "&")), sourceLocation: sourceLocation)
        case (.failure(let error), .failure(let streamedError)) where error.code == .malformedXML:
            // libxml2's push parser words some XML errors differently and may place them a
            // character or a line apart (COMPATIBILITY.md); the errors of the grammar are the same.
            #expect(
                streamedError.code == .malformedXML, "\(streamedError) against \(error)", sourceLocation: sourceLocation
            )
            let line = try? #require(streamedError.position?.line, sourceLocation: sourceLocation)
            #expect(
                abs((line ?? 0) - (error.position?.line ?? 0)) <= 1, "\(streamedError) against \(error)",
                sourceLocation: sourceLocation)
        case (.failure(let error), .failure(let streamedError)):
            #expect(
                streamedError.code == error.code, "\(streamedError) against \(error)", sourceLocation: sourceLocation)
            #expect(
                streamedError.position == error.position, "\(streamedError) against \(error)",
                sourceLocation: sourceLocation)
            if error.position != nil {
                #expect(streamedError.description == error.description, sourceLocation: sourceLocation)
            }
        default:
            Issue.record("in memory \(expected), streamed \(actual)", sourceLocation: sourceLocation)
        }
    }

    static let values = Generator { rng in PlistGenerator(profile: .libplistSafe, maxNodes: 300).value(using: &rng) }

    @Test func randomValuesReadAsInMemory() async throws {
        await propertyCheck(count: 60, input: Self.values) { value in
            for sortsKeys in [true, false] {
                guard let xml = try? value.xmlBytes(options: .init(sortsKeys: sortsKeys)) else { continue }
                Self.agree(xml, chunk: 1 + xml.count / 3)
            }
        }
    }

    /// The writer's output for values written whole: they read back unchanged.
    @Test func randomValuesWrittenWholeReadBack() async throws {
        await propertyCheck(count: 80, input: Generator { rng in PlistGenerator(maxNodes: 300).value(using: &rng) }) {
            value in
            var out: [UInt8] = []
            var writer = BinaryPlistStreamWriter { piece in out += piece }
            try writer.append(value)
            try writer.finish()
            #expect(try Plist(binary: out).isIdentical(to: value))
        }
    }

    @Test(arguments: [
        // Repeated keys: first place, last value (also inside CF$UID dictionaries).
        "<dict><key>a</key><integer>1</integer><key>b</key><true/><key>a</key><array><string>x</string></array></dict>",
        "<dict><key>a</key><dict><key>a</key><integer>1</integer><key>a</key><integer>2</integer></dict><key>a</key><integer>3</integer></dict>",
        // CF$UID: a lone non-negative integer is a UID; anything else a dictionary.
        "<dict><key>CF$UID</key><integer>7</integer></dict>",
        "<array><dict><key>CF$UID</key><integer>18446744073709551615</integer></dict><dict><key>CF$UID</key><integer>0</integer></dict></array>",
        "<dict><key>CF$UID</key><integer>-1</integer></dict>",
        "<dict><key>CF$UID</key><string>1</string></dict>",
        "<dict><key>CF$UID</key><real>1</real></dict>",
        "<dict><key>CF$UID</key><array><integer>1</integer></array></dict>",
        "<dict><key>CF$UID</key><dict><key>CF$UID</key><integer>2</integer></dict></dict>",
        "<dict><key>CF$UID</key><integer>1</integer><key>CF$UID</key><integer>2</integer></dict>",
        "<dict><key>CF$UID</key><integer>1</integer><key>x</key><integer>2</integer></dict>",
        "<dict><key>x</key><integer>2</integer><key>CF$UID</key><integer>1</integer></dict>",
        "<dict><key>x</key><dict><key>CF$UID</key><integer>3</integer></dict></dict>",
        // Scalars and white space.
        "<array><integer> 0x1F </integer><real>nan</real><real>-0.0</real><date>2001-01-01T00:00:00Z</date></array>",
        "<array><data>AAEC\n\tAwQ=</data><data></data><true> </true><string>  a &amp; b  </string><string/></array>",
        "<dict>\n\t<key>k</key>\n\t<!-- c -->\n\t<string>caf\u{E9} \u{1F600}</string>\n</dict>",
        "<array><string>same</string><string>same</string><integer>5</integer><integer>5</integer></array>",
        "<string>top</string>", "<integer>-9223372036854775808</integer>", "<array/>", "<dict/>",
        // Errors.
        "<dict><key>a</key></dict>", "<dict><string>a</string></dict>", "<array><key>a</key></array>",
        "<integer>12x</integer>", "<date>yesterday</date>", "<true>x</true>", "<array>text</array>",
        "<string>a</string><string>b</string>", "", "<array><plist/></array>", "<foo/>",
        "<dict><key>a</key><string>b</dict>", "<array><integer>1</integer>",
    ])
    func readsAsInMemory(body: String) {
        for chunk in [1, 7, 1 << 20] { Self.agree(Self.document(body), chunk: chunk) }
    }

    @Test func whiteSpaceBeforeTheDeclarationMovesPositions() {
        Self.agree(Self.document("<string>ok</string>", before: "\n  \n\t"))
        Self.agree(Self.document("<integer>x</integer>", before: "\n  \n\t"))
        let marked: [UInt8] = [0xEF, 0xBB, 0xBF] + Self.document("<integer>x</integer>", before: "  ")
        Self.agree(marked)
    }

    @Test func depthIsLimited() throws {
        let deep = Self.document(String(repeating: "<array>", count: 40) + String(repeating: "</array>", count: 40))
        let options = PlistReadOptions(maxDepth: 30)
        let error = try #require(throws: PlistError.self) { try Self.streamed(deep, options: options) }
        let inMemory = try #require(throws: PlistError.self) { try Plist(xml: deep, options: options) }
        #expect(error.description == inMemory.description)
        #expect(error.code == .tooDeep)
    }

    /// Every truncation of a document fails, as in memory, with a line and column (on the same
    /// line or the next: the two parsers stop at different places in a cut tag); one that ends
    /// inside an element says so.
    @Test func truncationsFail() throws {
        let xml = Self.document(
            "<dict><key>a</key><array><integer>1</integer><string>x</string></array><key>b</key><data>AAEC</data></dict>"
        )
        var premature = 0
        for length in 1..<xml.count - 1 {
            let cut = Array(xml[..<length])
            let error = try #require(throws: PlistError.self) { try Plist(xml: cut) }
            let streamed = try #require(throws: PlistError.self) { try Self.streamed(cut, chunk: 13) }
            let line = try #require(streamed.position?.line, "\(streamed)")
            #expect(abs(line - (error.position?.line ?? 0)) <= 1, "\(streamed) against \(error)")
            if streamed.description.contains("Premature end of data in tag") { premature += 1 }
        }
        #expect(premature > xml.count / 2)
    }

    @Test func wideEncodingsAreRefused() throws {
        let utf16: [UInt8] = [0xFF, 0xFE] + "<plist/>".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let error = try #require(throws: PlistError.self) { try Self.streamed(utf16) }
        #expect(error.description.contains("not streamed"))
    }

    /// Scalars repeated in a document are stored once: the output is not much larger than
    /// the in-memory writer's (four-byte references, entries of repeated keys).
    @Test func sharesRepeatedScalars() throws {
        var body = "<array>"
        for index in 0..<2000 {
            body += "<dict><key>name</key><string>n\(index % 10)</string><key>kind</key><string>file</string></dict>"
        }
        let xml = Self.document(body + "</array>")
        let streamed = try Self.streamed(xml, chunk: 4096)
        let inMemory = try Plist(xml: xml).binaryBytes()
        #expect(try Plist(binary: streamed).isIdentical(to: try Plist(binary: inMemory)))
        #expect(streamed.count < inMemory.count * 2, "\(streamed.count) against \(inMemory.count)")
    }
}

/// Every XML file of the shared corpus streams to the value the in-memory reader gives, and
/// every invalid one fails with the same message.
@Suite(.needsCorpus) struct XMLBinaryStreamCorpusTests {
    @Test func corpusIsPresent() {
        #expect(Corpus.validXML.count >= 50)
    }

    @Test(arguments: Corpus.validXML)
    func streamsLikeTheInMemoryReader(entry: Corpus.Entry) throws {
        let xml = try Paths.bytes(entry.url)
        if UnicodeText.wideEncoding(of: xml.span) != nil { return }
        XMLBinaryStreamTests.agree(xml, chunk: 4096)
    }

    @Test(arguments: Corpus.invalidXML)
    func failsLikeTheInMemoryReader(entry: Corpus.Entry) throws {
        XMLBinaryStreamTests.agree(try Paths.bytes(entry.url), chunk: 4096)
    }
}
