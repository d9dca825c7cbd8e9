import Foundation
import PlistCore
import TestSupport
import Testing

@testable import PlistXML

/// The XML scanner against the libxml2 reader: it reads a document exactly as the reader reads
/// it, or declines it; it never accepts what the reader refuses.
@Suite struct XMLScannerTests {
    private static let declaration = #"<?xml version="1.0" encoding="UTF-8"?>"#
    private static let doctype =
        #"<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">"#

    /// A whole document around `body` (the value inside `<plist>`).
    private static func document(_ body: String) -> [UInt8] {
        Array("\(declaration)\n\(doctype)\n<plist version=\"1.0\">\n\(body)\n</plist>\n".utf8)
    }

    /// The scanner's value of `bytes`, or nil when it declines.
    private func scanned(_ bytes: [UInt8], options: PlistReadOptions = .init()) -> Plist? {
        XMLScanner.table(of: bytes, options: options)?.plist()
    }

    /// The first of the characters in plane 15 that stand for the characters XML forbids.
    static let sentinelBase: UInt32 = 0xF0000

    /// `bytes` with every reference to a character XML forbids (which the scanner reads, as CF
    /// does, and libxml2 refuses) made a reference to a plane-15 character that stands for it,
    /// for libxml2 to read; unchanged (and false) when there is none; `nil` (no comparison) when
    /// there are some and the document holds plane-15 characters of its own.
    static func withSentinels(_ bytes: [UInt8]) -> ([UInt8], Bool)? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.contains("&#") else { return (bytes, false) }
        let hasPlane15 = text.unicodeScalars.contains(where: { $0.value >> 16 == 0xF })
        var changed = false
        let result = text.replacing(/&#(x[0-9A-Fa-f]+|[0-9]+);/) { match -> String in
            let digits = match.output.1
            let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            guard let value,
                value < 0x20 && value != 0x09 && value != 0x0A && value != 0x0D || value == 0xFFFE
                    || value == 0xFFFF
            else { return String(match.output.0) }
            changed = true
            return "&#x\(String(sentinelBase + value, radix: 16));"
        }
        if changed, hasPlane15 { return nil }
        return changed ? (Array(result.utf8), true) : (bytes, false)
    }

    /// The scanner's value of `bytes` as `Plist(xml:)` reads it (its table for a tree, which
    /// keeps `CF$UID` dictionaries and keys that may repeat), or nil when it declines.
    private func scannedForTree(_ bytes: [UInt8], options: PlistReadOptions = .init()) -> Plist? {
        XMLScanner.plist(of: bytes.span, options: options)
    }

    /// Checks the scanner against libxml2 on `bytes`, its table for Codable and its table for a
    /// tree (which reads all the first reads, and more); returns whether the first accepted it.
    @discardableResult
    private func agrees(
        _ bytes: [UInt8], options: PlistReadOptions = .init(), sourceLocation: SourceLocation = #_sourceLocation
    )
        -> Bool
    {
        guard let (sentineled, hasSentinels) = Self.withSentinels(bytes) else { return scanned(bytes) != nil }
        let reader = Result { () throws(PlistError) in
            let value = try Plist(libxml2: sentineled, options: options)
            return hasSentinels ? value.replacingSentinels : value
        }
        let value = scanned(bytes, options: options)
        let tree = scannedForTree(bytes, options: options)
        if value != nil, tree == nil {
            Issue.record("the scan for a tree declined what the scan for Codable read", sourceLocation: sourceLocation)
        }
        for read in [value, tree] {
            guard let read else { continue }
            switch reader {
            case .success(let expected):
                #expect(
                    read.isIdentical(to: expected), "\(read.firstDifference(from: expected) ?? "")",
                    sourceLocation: sourceLocation)
            case .failure(let error):
                Issue.record("the scanner accepted what libxml2 refuses: \(error)", sourceLocation: sourceLocation)
            }
        }
        return value != nil
    }

    // MARK: The corpus

    @Test(.needsCorpus, arguments: Corpus.validXML)
    func readsValidCorpusFilesAsLibXML2DoesOrDeclines(entry: Corpus.Entry) throws {
        agrees(try Paths.bytes(entry.url))
    }

    @Test(.needsCorpus, arguments: Corpus.invalidXML)
    func declinesEveryInvalidCorpusFile(entry: Corpus.Entry) throws {
        let bytes = try Paths.bytes(entry.url)
        #expect(throws: PlistError.self) { try Plist(libxml2: bytes) }
        #expect(scanned(bytes) == nil)
    }

    /// The valid files the scanner leaves to libxml2, and why; it reads every other one.
    static let declinedValidFiles: [String: String] = [
        "xml/libplist__cdata.plist": "CDATA",
        "xml/libplist__empty_keys.plist": "a comment inside a key",
        "xml/goplist__unusual-s04.plist": "a comment inside a key",
        "xml/goplist__unusual-s11.plist": "a repeated key, an attribute on a key",
        "xml/ddplist__test-xml-utf-16be-bom.plist": "UTF-16",
        "xml/ddplist__test-xml-utf-16le.plist": "UTF-16",
        "xml/ddplist__test-xml-utf-32le-bom.plist": "UTF-32",
        "xml/ddplist__test-xml-utf-32be.plist": "UTF-32",
        "xml/cfpl__uid.xml": "CF$UID",
        "keyed-archive/corelibs__NSKeyedUnarchiver-ArrayTest.plist": "CF$UID",
        "keyed-archive/corelibs__NSKeyedUnarchiver-ConcreteValueTest.plist": "CF$UID",
        "keyed-archive/corelibs__NSKeyedUnarchiver-EdgeInsetsTest.plist": "CF$UID",
        "keyed-archive/corelibs__NSKeyedUnarchiver-NotificationTest.plist": "CF$UID",
        "keyed-archive/corelibs__NSKeyedUnarchiver-URLTest.plist": "CF$UID",
        "keyed-archive/corelibs__NSKeyedUnarchiver-UUIDTest.plist": "CF$UID",
    ]

    @Test(.needsCorpus) func readsEveryOrdinaryCorpusFile() throws {
        let declined = try Corpus.validXML.filter { scanned(try Paths.bytes($0.url)) == nil }.map(\.file)
        #expect(Set(declined) == Set(Self.declinedValidFiles.keys))
        #expect(Corpus.validXML.count - declined.count >= 35)
    }

    /// Corpus documents with one to three bytes replaced, inserted or removed at random places
    /// (markup characters, control bytes, bytes beyond ASCII: what the eight-bytes-at-a-time
    /// text check and the whole-word end tags must notice): the scanner reads each as libxml2
    /// does, or declines it.
    @Test(.needsCorpus) func readsMutatedCorpusFilesAsLibXML2DoesOrDeclines() throws {
        let interesting = Array("<>/&;]\"'=!?-# \t\n\r\u{0}\u{1}\u{7F}akKsy".utf8) + [0x80, 0xC3, 0xA9, 0xFF]
        var rng = SeededRandom(seed: 5)
        var accepted = 0
        var total = 0
        for entry in Corpus.validXML {
            let original = try Paths.bytes(entry.url)
            guard original.count < 100_000 else { continue }
            for _ in 0..<100 {
                var bytes = original
                for _ in 0..<Int(rng.next() % 3) + 1 {
                    let at = Int(rng.next() % UInt64(bytes.count))
                    let byte = interesting[Int(rng.next() % UInt64(interesting.count))]
                    switch rng.next() % 3 {
                    case 0: bytes[at] = byte
                    case 1: bytes.insert(byte, at: at)
                    default: bytes.remove(at: at)
                    }
                }
                total += 1
                if agrees(bytes) { accepted += 1 }
            }
        }
        // Some mutations leave a document both read alike (a changed letter in a text).
        #expect(accepted > total / 10, "\(accepted) of \(total) read")
    }

    /// Dictionaries whose plain ASCII keys are out of order, which the scanner checks for
    /// repeats by sorting their bytes: a repeat anywhere (first and last, adjacent, sharing an
    /// eight-byte prefix, one key a prefix of another) is left to libxml2, and distinct keys are
    /// read as libxml2 reads them.
    @Test(arguments: [
        (["b", "a"], true), (["b", "a", "b"], false), (["zz", "a", "zz"], false), (["c", "b", "a", "a"], false),
        (["abcdefgh2", "abcdefgh1"], true), (["abcdefgh2", "abcdefgh1", "abcdefgh2"], false),
        (["key1", "key"], true), (["key", "key1", "key"], false), (["", "x", ""], false), (["x", ""], true),
        ((0..<40).map { "k\((7 * $0) % 40)" }, true), ((0..<40).map { "k\((7 * $0) % 40)" } + ["k17"], false),
        (["abcdefghijklmnoB", "abcdefghijklmnoA"], true),
        (["abcdefghijklmno", "abcdefghijklmnoA", "abcdefghijklmno"], false),
        (["abcdefghijklB", "abcdefghijklA", "abcdefghijkl", "abcdefghijklB"], false),
        (["com.example.key2", "com.example.key10", "com.example.key1"], true),
        ((0..<40).map { "com.example.key\((7 * $0) % 40)" } + ["com.example.key33"], false),
        ((0..<70).map { "k\((9 * $0) % 70)" }, true), ((0..<70).map { "k\((9 * $0) % 70)" } + ["k17"], false),
        ((0..<64).map { "abcdefghijklmno\((7 * $0) % 64)" } + ["abcdefghijklmno5"], false),
    ])
    func unsortedKeysAreCheckedForRepeats(keys: [String], distinct: Bool) {
        let body = "<dict>" + keys.enumerated().map { "<key>\($1)</key><integer>\($0)</integer>" }.joined() + "</dict>"
        #expect(agrees(Self.document(body)) == distinct)
        if !distinct {
            // The repeat is read by libxml2: the first place, the last value.
            let value = try? Plist(libxml2: Self.document(body))
            #expect(value?.dictionary?.count == Set(keys).count)
        }
    }

    /// Values the generator makes, written by the XML writer (sorted keys and not), read as
    /// libxml2 reads them; over a third are read (the rest hold UIDs, control characters XML
    /// refuses, or keys equal as strings but not as bytes, and are left to libxml2). The same
    /// documents without indentation, with CRLF line endings and comments between elements, too.
    @Test func readsWhatTheWriterWrites() throws {
        var accepted = 0
        var acceptedFlat = 0
        for seed in 0..<200 as Range<UInt64> {
            var rng = SeededRandom(seed: seed)
            let value = PlistGenerator(profile: .libplistSafe, maxDepth: 5, maxNodes: 300).value(using: &rng)
            for sortsKeys in [true, false] {
                guard let bytes = try? value.xmlBytes(options: .init(sortsKeys: sortsKeys)) else { continue }
                if agrees(bytes) { accepted += 1 }
                if agrees(Self.flatCRLF(bytes)) { acceptedFlat += 1 }
            }
        }
        #expect(accepted >= 120, "\(accepted) of 400 read")
        #expect(acceptedFlat >= 120, "\(acceptedFlat) of 400 read without indentation")
    }

    /// `bytes` without the tabs that start its lines, with CRLF line endings, and a comment
    /// after every key.
    static func flatCRLF(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            if !result.isEmpty { result += [0x0D, 0x0A] }
            let text = line.drop { $0 == 0x09 }
            result += text
            if text.starts(with: Array("<key>".utf8)) { result += Array("<!-- c -->".utf8) }
        }
        return result
    }

    // MARK: What it reads

    @Test(arguments: [
        "<string>a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;</string>",
        "<string>&#65;&#x42;&#x1F600;&#0000067;</string>",
        "<string>line\r\nbreak\rand&#13;return</string>",
        "<string>caf\u{E9} \u{1F600} \u{FFFD}</string>",
        "<string>]] > ]&gt;</string>",
        "<string/>",
        "<string></string>",
        "<dict><key>b</key><true/><key>a</key><false/></dict>",
        "<dict><key>a&amp;b</key><integer>1</integer><key>a</key><integer>2</integer></dict>",
        "<dict><key>caf\u{E9}</key><integer>1</integer><key>cafe</key><integer>2</integer></dict>",
        "<dict>\n\t<key>x</key>\n\t<!-- a comment -->\n\t<array>\n\t\t<integer> -12</integer>\n\t</array>\n</dict>",
        "<array><integer>0x1F</integer><integer>-9223372036854775808</integer><integer>18446744073709551615</integer></array>",
        "<array><real>1.5</real><real>-infinity</real><real>nan</real><real>1e308</real><real>.5</real></array>",
        "<array><date>2001-01-01T00:00:00Z</date><date>1969-12-31T23:59:60Z</date></array>",
        "<array><data>AAEC\n\tAwQ=</data><data></data><data>!!QUJD</data></array>",
        "<array><true></true><false> </false><dict/><array/><dict></dict></array>",
        "<dict><key/><string>empty key</string></dict>",
        "<dict ><key >k</key ><string >v</string\n></dict\t>",
        // A key past 16 bits of length, beside references libxml2 refuses (which only the
        // scanner reads): found by the OpenStep fuzzer, when such keys were declined.
        "<dict><key>a&#0;b</key><string>x&#1;</string><key>\(String(repeating: "k", count: 70_000))</key><true/>"
            + "<key>\(String(repeating: "\u{E9}", count: 40_000))</key><false/></dict>",
    ])
    func readsValuesAsLibXML2Does(body: String) {
        #expect(agrees(Self.document(body)))
    }

    @Test(arguments: [
        "<plist><string>no declaration</string></plist>",
        "  \n\t<?xml version='1.0'?><plist><true/></plist>",
        #"<?xml version="1.0" encoding="utf-8" standalone="yes"?><plist version="1.0"><true/></plist>"#,
        "<!-- before --><!DOCTYPE plist><plist><false/></plist><!-- after -->\n",
        #"<!DOCTYPE plist SYSTEM "file.dtd"><plist><integer>1</integer></plist>"#,
        "<dict><key>no plist element</key><integer>1</integer></dict>",
        "<string>a lone string</string>\n",
    ])
    func readsDocumentShapesAsLibXML2Does(text: String) {
        #expect(agrees(Array(text.utf8)))
    }

    // MARK: What it declines

    /// Documents libxml2 reads that the scanner leaves to it.
    @Test(arguments: [
        "<string><![CDATA[a < b]]></string>",
        "<string>a<!-- inside -->b</string>",
        "<?pi data?><true/>",
        "<dict attribute=\"1\"><key>a</key><true/></dict>",
        "<dict><key>CF$UID</key><integer>5</integer></dict>",
        "<dict><key>a</key><integer>1</integer><key>a</key><integer>2</integer></dict>",
        "<dict><key>caf\u{E9}</key><integer>1</integer><key>cafe\u{301}</key><integer>2</integer></dict>",
        "<dict><key>a&amp;</key><true/><key>a&#38;</key><false/></dict>",
        "<array>&#32;</array>",
        "<true>&#32;</true>",
    ])
    func declinesWhatLibXML2Reads(body: String) throws {
        let bytes = Self.document(body)
        #expect(scanned(bytes) == nil)
        _ = try Plist(libxml2: bytes)
    }

    /// Keys escaped or beyond ASCII, repeated as strings (byte for byte, or only canonically):
    /// the table for Codable declines them, the table for a tree reads them as libxml2 does
    /// (first place, last value), its dictionary hashing each key once.
    @Test(arguments: [
        "<dict><key>caf\u{E9}</key><integer>1</integer><key>cafe\u{301}</key><integer>2</integer></dict>",
        "<dict><key>a&amp;</key><true/><key>b</key><false/><key>a&#38;</key><false/></dict>",
        "<dict><key>\u{E9}</key><integer>1</integer><key>x</key><integer>2</integer><key>\u{E9}</key><integer>3</integer></dict>",
        "<dict><key>\u{E9}</key><integer>1</integer><key>\u{E9}</key><dict><key>CF$UID</key><integer>3</integer></dict></dict>",
        "<array><dict><key>\u{3B1}</key><string>1</string><key>\u{3B2}</key><string>2</string></dict><dict><key>&lt;</key><true/></dict></array>",
        "<dict><key>a</key><integer>1</integer><key>&#97;</key><integer>2</integer></dict>",
        "<dict><key>CF&#36;UID</key><integer>1</integer><key>CF$UID</key><integer>2</integer></dict>",
        "<dict>" + (0..<20).map { "<key>\u{E9}\($0)</key><integer>\($0)</integer>" }.joined()
            + "<key>\u{E9}7</key><string>last</string></dict>",
    ])
    func readsRepeatedUncheckedKeysForATreeAsLibXML2Does(body: String) throws {
        let bytes = Self.document(body)
        let expected = try Plist(libxml2: bytes)
        let tree = try #require(scannedForTree(bytes))
        #expect(tree.isIdentical(to: expected), "\(tree.firstDifference(from: expected) ?? "")")
        #expect(agrees(bytes) == (body.hasPrefix("<array>")))
    }

    @Test func declinesOtherDocumentShapesLibXML2Reads() throws {
        let cases: [[UInt8]] = [
            [0xEF, 0xBB, 0xBF] + Array("<plist><true/></plist>".utf8),
            [0xFF, 0xFE] + "<plist><true/></plist>".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] },
            "<plist><true/></plist>".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] },
            Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><plist><string>caf"#.utf8) + [0xE9]
                + Array("</string></plist>".utf8),
            Array(#"<plist version="1.0" xmlns="urn:x"><true/></plist>"#.utf8),
        ]
        for bytes in cases {
            #expect(scanned(bytes) == nil)
            #expect(throws: Never.self) { try Plist(libxml2: bytes) }
        }
    }

    /// Malformed documents: libxml2 refuses them, the scanner declines them.
    @Test(arguments: [
        "<string>a < b</string>",
        "<string>a & b</string>",
        "<string>&unknown;</string>",
        "<string>&#xD800;</string>",
        "<string>&#X41;</string>",
        "<string>a ]]> b</string>",
        "<string>bell \u{07}</string>",
        "<string>\u{FFFF}</string>",
        "<string>open",
        "<string>a</strin>",
        "<dict><key>a</key></dict>",
        "<dict><string>no key</string></dict>",
        "<array><key>k</key></array>",
        "<dict>text<key>a</key><true/></dict>",
        "<integer>12x</integer>",
        "<integer>99999999999999999999</integer>",
        "<real>1.5.5</real>",
        "<date>2001-02-30T00:00:00</date>",
        "<true>yes</true>",
        "<unknown/>",
        "<array><plist/></array>",
        "<string>a</string><string>b</string>",
        "<!-- a -- b --><true/>",
        "<dict/ >",
    ])
    func declinesMalformedDocuments(body: String) {
        let bytes = Self.document(body)
        #expect(throws: PlistError.self) { try Plist(libxml2: bytes) }
        #expect(scanned(bytes) == nil)
    }

    @Test func declinesInvalidUTF8AndMalformedProlog() {
        let cases: [[UInt8]] = [
            Self.document("<string>") + [0xC3, 0x28] + Array("</string>".utf8),
            Self.document("<string>") + [0xED, 0xA0, 0x80] + Array("</string>".utf8),
            Self.document("<string>") + [0xC0, 0xAF] + Array("</string>".utf8),
            Self.document("<true/>") + Array("trailing".utf8),
            Array(#"<?xml version="1.0"?><?xml version="1.0"?><plist><true/></plist>"#.utf8),
            Array(#"<!DOCTYPE plist [ <!ELEMENT plist ANY> ]><plist><true/></plist>"#.utf8),
            Array("<plist><true/>".utf8),
            Array("".utf8),
        ]
        for bytes in cases {
            #expect(throws: PlistError.self) { try Plist(libxml2: bytes) }
            #expect(scanned(bytes) == nil)
        }
    }

    /// Past a limit the scanner declines, and the reader gives the error.
    @Test func declinesPastTheLimits() throws {
        let deep = Self.document(String(repeating: "<array>", count: 20) + String(repeating: "</array>", count: 20))
        #expect(agrees(deep, options: .init(maxDepth: 20)))
        #expect(scanned(deep, options: .init(maxDepth: 19)) == nil)
        #expect(
            try #require(throws: PlistError.self) { try Plist(libxml2: deep, options: .init(maxDepth: 19)) }.kind
                == .tooDeep(limit: 19))

        let many = Self.document("<array>" + String(repeating: "<true/>", count: 9) + "</array>")
        #expect(agrees(many, options: .init(maxObjects: 10)))
        #expect(scanned(many, options: .init(maxObjects: 9)) == nil)
        #expect(
            try #require(throws: PlistError.self) { try Plist(libxml2: many, options: .init(maxObjects: 9)) }.kind
                == .tooManyObjects(limit: 9))

        let text = Self.document("<string>0123456789</string>")
        #expect(agrees(text, options: .init(maxContentBytes: 10)))
        #expect(scanned(text, options: .init(maxContentBytes: 9)) == nil)
        #expect(
            try #require(throws: PlistError.self) { try Plist(libxml2: text, options: .init(maxContentBytes: 9)) }.kind
                == .tooMuchContent(limit: 9))
    }

    /// 100,000 nested arrays: the scanner keeps its own stack, so it declines at the limit
    /// without overflowing the call stack, and indexes them when the limit allows. (Only the
    /// flat table is made: releasing a tree that deep would recurse.)
    @Test func deepNestingDoesNotOverflowTheStack() {
        let depth = 100_000
        let bytes = Array(
            (String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth)).utf8)
        #expect(XMLScanner.table(of: bytes, options: .init()) == nil)
        #expect(XMLScanner.table(of: bytes, options: .init(maxDepth: depth)) != nil)
    }

    /// The end tags the scanner compares as words are `</name>` for every leaf kind.
    @Test func endTagWordsSpellTheEndTags() {
        let names: [XMLTable.Kind: String] = [
            .key: "key", .string: "string", .integer: "integer", .real: "real", .date: "date", .data: "data",
        ]
        for raw in 0...XMLTable.Kind.false.rawValue {
            let kind = XMLTable.Kind(rawValue: raw)!
            let tag = kind.endTag
            guard let name = names[kind] else {
                #expect(tag == nil)
                continue
            }
            let bytes = Array("</\(name)>".utf8) + Array(repeating: 0xFF, count: 16)
            func word(_ bytes: ArraySlice<UInt8>) -> UInt64 { bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) } }
            let words = (word(bytes[0..<8]), word(bytes[8..<16]))
            #expect(tag?.length == name.utf8.count + 3)
            #expect(words.0 & (tag?.masks.0 ?? 0) == tag?.words.0 && words.1 & (tag?.masks.1 ?? 0) == tag?.words.1)
            let masked = (0..<16).map { index in index < name.utf8.count + 3 ? UInt8(0xFF) : 0 }
            #expect(word(masked[0..<8]) == tag?.masks.0 && word(masked[8..<16]) == tag?.masks.1)
        }
    }

    /// The eight-bytes-at-a-time check of text agrees with a byte-by-byte one, for words made
    /// of the bytes around every boundary it tests.
    @Test func plainLengthIsWhereTheFirstSpecialByteIs() {
        let edges: [UInt8] = [
            0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x20, 0x21, 0x25, 0x26, 0x27, 0x3B, 0x3C, 0x3D, 0x5C, 0x5D, 0x5E, 0x61, 0x7F,
            0x80, 0xC3, 0xFF,
        ]
        var generator = SystemRandomNumberGenerator()
        var plain = 0
        for _ in 0..<200_000 {
            // Mostly plain bytes, so that words with one special byte anywhere are common.
            let bytes = (0..<8).map { _ in
                Int.random(in: 0..<4, using: &generator) == 0
                    ? edges.randomElement(using: &generator)! : UInt8.random(in: 0x3D...0x5C, using: &generator)
            }
            let word = bytes.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let expected =
                bytes.firstIndex { !($0 >= 0x20 && $0 < 0x80 && $0 != 0x3C && $0 != 0x26 && $0 != 0x5D) } ?? 8
            #expect(XMLText.plainLength(word) == expected, "\(bytes)")
            if expected == 8 { plain += 1 }
        }
        #expect(plain > 1000)
    }
}

extension Plist {
    /// Reads an XML property list with libxml2 only, without the scanner: the reference the
    /// scanner is tested against.
    fileprivate init(libxml2 bytes: [UInt8], options: PlistReadOptions = .init()) throws(PlistError) {
        self = try XMLReader.read(bytes.span, options: options)
    }
}

extension Plist {
    /// The value with the plane-15 stand-ins of `XMLScannerTests.withSentinels` made the
    /// characters they stand for again.
    fileprivate var replacingSentinels: Plist {
        func restored(_ string: String) -> String {
            String(
                String.UnicodeScalarView(
                    string.unicodeScalars.map { scalar in
                        scalar.value >> 16 == 0xF
                            ? Unicode.Scalar(scalar.value - XMLScannerTests.sentinelBase)! : scalar
                    }))
        }
        switch self {
        case .string(let string): return .string(restored(string))
        case .array(let elements): return .array(elements.map(\.replacingSentinels))
        case .dictionary(let entries):
            return .dictionary(
                .init(uniqueKeysWithValues: entries.map { (restored($0.key), $0.value.replacingSentinels) }))
        default: return self
        }
    }
}
