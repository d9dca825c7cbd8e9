import Foundation
import PlistKit
import PropertyBased
import TestSupport
import Testing

/// Every writer either writes bytes that this package reads back to the same value (within the
/// format's precision, `ReadBackPrecision`) or fails with a `PlistError` naming the key path of
/// what the format cannot hold: never a file that reads back as something else, or not at all.
@Suite struct ReadBackTests {
    /// A writer, its reader and how much of a value survives the two.
    struct Writer: Sendable, CustomTestStringConvertible {
        let name: String
        let precision: ReadBackPrecision
        let write: @Sendable (Plist) throws(PlistError) -> [UInt8]
        let read: @Sendable ([UInt8]) throws(PlistError) -> Plist
        var testDescription: String { name }
    }

    static let writers: [Writer] = [
        Writer(
            name: "binary", precision: .exact, write: { v throws(PlistError) in try v.binaryBytes() },
            read: { b throws(PlistError) in try Plist(binary: b) }),
        Writer(
            name: "XML", precision: .text(keepsZeroSign: false, wholeSecondDates: true),
            write: { v throws(PlistError) in try v.xmlBytes() },
            read: { b throws(PlistError) in try Plist(xml: b) }
        ),
        Writer(
            name: "OpenStep", precision: .exact, write: { v throws(PlistError) in try v.openStepBytes() },
            read: { b throws(PlistError) in try Plist(openStep: b) }),
        Writer(
            name: "OpenStep --stringify", precision: .readable,
            write: { v throws(PlistError) in try v.openStepBytes(options: .init(openStepValues: .strings)) },
            read: { b throws(PlistError) in try Plist(openStep: b) }
        ),
        Writer(
            name: "GNUstep", precision: .text(keepsZeroSign: true, wholeSecondDates: true),
            write: { v throws(PlistError) in try v.openStepBytes(options: .init(openStepValues: .gnustep)) },
            read: { b throws(PlistError) in try Plist(openStep: b) }
        ),
        Writer(
            name: ".strings", precision: .exact, write: { v throws(PlistError) in try v.stringsBytes() },
            read: { b throws(PlistError) in try Plist(openStep: b) }),
        Writer(
            name: ".strings --stringify", precision: .readable,
            write: { v throws(PlistError) in try v.stringsBytes(options: .init(openStepValues: .strings)) },
            read: { b throws(PlistError) in try Plist(openStep: b) }
        ),
        Writer(
            name: "JSON typed", precision: .text(keepsZeroSign: true, wholeSecondDates: false),
            write: { v throws(PlistError) in try v.jsonBytes() },
            read: { b throws(PlistError) in try Plist(json: b) }
        ),
        Writer(
            name: "JSON strict", precision: .text(keepsZeroSign: true, wholeSecondDates: false),
            write: { v throws(PlistError) in try v.jsonBytes(options: .init(jsonValues: .strict)) },
            read: { b throws(PlistError) in try Plist(json: b) }
        ),
        Writer(
            name: "JSON lossy", precision: .readable,
            write: { v throws(PlistError) in try v.jsonBytes(options: .init(jsonValues: .lossy)) },
            read: { b throws(PlistError) in try Plist(json: b) }
        ),
    ]

    /// Writes `value`; if that works, reads the bytes back and compares. A failure must be a
    /// `PlistError` that names a key path (`.unrepresentable`).
    static func check(_ value: Plist, _ writer: Writer, sourceLocation: SourceLocation = #_sourceLocation) {
        let bytes: [UInt8]
        do {
            bytes = try writer.write(value)
        } catch {
            #expect(error.code == .unrepresentable && error.keyPath != nil, "\(error)", sourceLocation: sourceLocation)
            return
        }
        do {
            let back = try writer.read(bytes)
            if let difference = value.difference(from: back, within: writer.precision) {
                Issue.record("\(writer.name) read back another value at \(difference)", sourceLocation: sourceLocation)
            }
        } catch {
            Issue.record(
                "\(writer.name) wrote what it cannot read: \(error)\n\(String(decoding: bytes.prefix(3000), as: UTF8.self).debugDescription)",
                sourceLocation: sourceLocation)
        }
    }

    /// Everything the value tree holds, with the nasty values drawn often.
    static let anything = Generator { rng in PlistGenerator(maxDepth: 3, maxNodes: 200).value(using: &rng) }

    /// Values whose scalars are all strings or data (what plain OpenStep holds), and dictionaries
    /// of strings (what `.strings` holds): random values turned so, so that the string
    /// writers' escapes are what is tested rather than their refusals.
    static let textOnly = Generator { rng in PlistGenerator(maxDepth: 3, maxNodes: 200).value(using: &rng).textOnly }

    @Test(arguments: writers)
    func randomValuesReadBackOrFailCleanly(writer: Writer) async {
        await propertyCheck(count: 100, input: Self.anything) { value in Self.check(value, writer) }
        await propertyCheck(count: 100, input: Self.textOnly) { value in Self.check(value, writer) }
        await propertyCheck(count: 60, input: Self.textOnly) { value in Self.check(value.flatStrings, writer) }
    }

    /// Values every writer must handle one way or the other, whatever the random draws do.
    static let nastyValues: [Plist] = {
        let controls = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init)))
        let strings = [
            "", controls, "a\u{0}b", "\u{8}", "\r", "\r\n", "\u{7F}", "\u{FFFE}\u{FFFF}", "x\u{FFFE}", "\u{FFFD}",
            "<&>\"'", "]]>", "\\U0041", "\\", "\u{1F600}", "e\u{301}", " lead", "trail ", "//", "/*", "a\u{0}",
        ]
        var values: [Plist] = strings.map { .string($0) }
        values.append(.dictionary(PlistDictionary(uniqueKeysWithValues: strings.map { ($0, Plist.string($0)) })))
        values.append(.dictionary(["\u{0}": "NUL key", "k\u{0}": .string(controls)]))
        values += [.array([]), .dictionary([:]), [[], [:]], ["": [:]], .data(Data()), .data(Data([0, 0xFF]))]
        let dates: [Double] = [
            .nan, .infinity, -.infinity, 1e15, -1e15, 252_423_993_600, 252_423_993_599.999, -63_113_904_000,
            -63_113_904_000.5, -63_113_904_001, -0.0, -1e-300, -5e-324, 0.999999999, -0.5, 978_307_200.25,
        ]
        values += dates.map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        values.append(["when": .date(Date(timeIntervalSinceReferenceDate: .nan))])
        // Keys past 65,535 bytes escaped: plain ones read back (through libxml2); ones holding
        // characters XML 1.0 forbids are refused by the XML writer (see `longKeysXMLCannotHold`).
        values.append([String(repeating: "a", count: 70_000): "long key"])
        values.append(["long": .dictionary([String(repeating: "\u{0}", count: 20_000): 1])])
        values += [
            .integer(PlistInteger(UInt64.max)), .integer(PlistInteger(Int64.min)), .real(-0.0), .real(.nan),
            .real(-.infinity), .real(.leastNonzeroMagnitude), .uid(0), .uid(UInt64.max),
            ["CF$UID": 3], ["CF$UID": "3"], ["CF$UID": 3, "other": 1], ["$real": "nan"], ["$date": 0],
        ]
        return values
    }()

    @Test(arguments: writers)
    func nastyValuesReadBackOrFailCleanly(writer: Writer) {
        for value in Self.nastyValues { Self.check(value, writer) }
    }

    /// A key of 20,000 NUL characters is 80,000 bytes of `&#0;` references, which only this
    /// package's scanner reads and only up to 65,535 bytes a key: the XML writers refuse it, the
    /// Codable encoder's included, naming the dictionary that holds it.
    @Test func longKeysXMLCannotHold() throws {
        let key = String(repeating: "\u{0}", count: 20_000)
        let value: Plist = ["outer": .dictionary([key: 1])]
        #expect {
            try value.xmlBytes()
        } throws: { error in
            (error as? PlistError)?.keyPath == "outer" && (error as? PlistError)?.code == .unrepresentable
        }
        let encoder = PlistEncoder()
        encoder.outputFormat = .xml
        // Codable reports it as Foundation's encoder does: an `EncodingError` around the `PlistError`.
        #expect {
            try encoder.encode(["outer": [key: 1]])
        } throws: { error in
            error is EncodingError && "\(error)".contains("key path \"outer\" is a key of more than 65,535 bytes")
        }
        // 13,107 NULs count 65,535 bytes escaped (5 each, at most): written, and read back.
        let shorter: Plist = ["outer": .dictionary([String(repeating: "\u{0}", count: 13_107): 1])]
        #expect(try Plist(xml: shorter.xmlBytes()) == shorter)
    }

    /// Swift and Objective-C source cannot be read back here (SourceCodeTests compiles it): the
    /// values' strings and keys must come back from its string literals, and what the languages
    /// cannot hold must fail cleanly.
    @Test(arguments: ["swift", "objc"])
    func sourceCodeKeepsEveryStringOrFailsCleanly(language: String) async {
        func check(_ value: Plist) {
            let bytes: [UInt8]
            do {
                bytes =
                    try language == "swift"
                    ? value.swiftSource(name: "value", fileName: "value.plist")
                    : value.objcSource(name: "value", fileName: "value.plist")
            } catch {
                #expect(error.code == .unrepresentable && error.keyPath != nil, "\(error)")
                return
            }
            let literals = Set(Self.stringLiterals(in: bytes, swift: language == "swift"))
            for string in value.allStrings where !literals.contains(string) {
                Issue.record("\(language) lost \(string.debugDescription)")
            }
        }
        for value in Self.nastyValues { check(value) }
        await propertyCheck(count: 100, input: Self.textOnly) { value in check(value) }
    }

    /// The decoded contents of the string literals in Swift or Objective-C source.
    static func stringLiterals(in bytes: [UInt8], swift: Bool) -> [String] {
        var literals: [String] = []
        var scalars = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)[...]
        while let quote = scalars.firstIndex(of: "\"") {
            scalars = scalars[(quote + 1)...]
            var literal = String.UnicodeScalarView()
            while let scalar = scalars.popFirst(), scalar != "\"" {
                guard scalar == "\\", let escaped = scalars.popFirst() else {
                    literal.append(scalar)
                    continue
                }
                switch escaped {
                case "n": literal.append("\n")
                case "r": literal.append("\r")
                case "t": literal.append("\t")
                case "0" where swift: literal.append("\u{0}")
                case "u" where swift:
                    let digits = scalars.prefix { $0 != "}" }.dropFirst()
                    scalars = scalars.dropFirst(digits.count + 2)
                    literal.append(Unicode.Scalar(UInt32(String(String.UnicodeScalarView(digits)), radix: 16)!)!)
                case "0"..."7" where !swift:
                    let digits = [escaped] + scalars.prefix(2)
                    scalars = scalars.dropFirst(2)
                    literal.append(Unicode.Scalar(UInt8(String(String.UnicodeScalarView(digits)), radix: 8)!))
                default: literal.append(escaped)
                }
            }
            literals.append(String(literal))
        }
        return literals
    }

    /// Every corpus file this package reads, written by every writer.
    @Test(.needsCorpus, arguments: writers)
    func corpusFilesReadBackOrFailCleanly(writer: Writer) throws {
        var checked = 0
        for entry in Corpus.entries where !entry.file.hasPrefix("invalid/") {
            guard let value = try? Plist(contentsOf: entry.url.path) else { continue }
            Self.check(value, writer)
            checked += 1
        }
        #expect(checked > 140, "only \(checked) corpus files read")
    }
}

extension Plist {
    /// Every string and key in the value.
    fileprivate var allStrings: [String] {
        switch self {
        case .string(let string): [string]
        case .array(let elements): elements.flatMap(\.allStrings)
        case .dictionary(let entries): entries.flatMap { [$0.key] + $0.value.allStrings }
        default: []
        }
    }

    /// The value with every scalar but strings and data made a string.
    fileprivate var textOnly: Plist {
        switch self {
        case .string, .data: self
        case .array(let elements): .array(elements.map(\.textOnly))
        case .dictionary(let entries): .dictionary(entries.mapValues(\.textOnly))
        default: .string(description)
        }
    }

    /// A dictionary of the strings in the value, each its own key (what `.strings` holds).
    fileprivate var flatStrings: Plist {
        var entries = PlistDictionary()
        func visit(_ value: Plist) {
            switch value {
            case .string(let string): entries[string] = .string(string)
            case .array(let elements): for element in elements { visit(element) }
            case .dictionary(let dictionary):
                for (key, element) in dictionary {
                    entries[key] = .string(key)
                    visit(element)
                }
            default: break
            }
        }
        visit(self)
        return .dictionary(entries)
    }
}

/// Character references to the characters XML 1.0 forbids, as CoreFoundation reads them and the
/// XML writer writes them (docs/COMPATIBILITY.md).
@Suite struct XMLForbiddenCharacterTests {
    static func document(_ body: String, encoding: String = "UTF-8") -> String {
        "<?xml version=\"1.0\" encoding=\"\(encoding)\"?>\n<plist version=\"1.0\">\n\(body)\n</plist>\n"
    }

    @Test func referencesToForbiddenCharactersAreRead() throws {
        let text = Self.document("<dict><key>k&#0;</key><string>a&#8;b&#x1F;&#xFFFE;&#65535;&#13;</string></dict>")
        #expect(try Plist(xml: Array(text.utf8)) == ["k\u{0}": "a\u{8}b\u{1F}\u{FFFE}\u{FFFF}\r"])
        // Beside a UID (which the scanner reads too).
        let withUID = Self.document(
            "<array><string>&#8;&lt;</string><dict><key>CF$UID</key><integer>7</integer></dict></array>")
        #expect(try Plist(xml: Array(withUID.utf8)) == [.string("\u{8}<"), .uid(7)])
    }

    /// A surrogate cannot stand alone in a string: refused with its place, as binary and JSON refuse it.
    @Test(arguments: ["&#xD800;", "&#56320;", "&#x110000;"])
    func referencesToSurrogatesAreRefused(reference: String) throws {
        let text = Self.document("<string>a\(reference)</string>")
        let error = try #require(throws: PlistError.self) { try Plist(xml: Array(text.utf8)) }
        #expect(error.code == .malformedXML && error.position?.line == 3, "\(error)")
    }

    /// Raw forbidden characters stay malformed XML, as every XML parser says.
    @Test func rawForbiddenCharactersAreRefused() throws {
        let error = try #require(throws: PlistError.self) {
            try Plist(xml: Array(Self.document("<string>a\u{8}b</string>").utf8))
        }
        #expect(error.code == .malformedXML && error.position?.line == 3, "\(error)")
    }

    /// Documents only libxml2 reads (here UTF-16) get its refusal: libxml2 reads no such
    /// reference, recovering or not, in XML 1.0 or 1.1.
    @Test func libxml2RefusesThemInDocumentsTheScannerDeclines() throws {
        let text = Self.document("<string>a&#8;b</string>", encoding: "UTF-16")
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let error = try #require(throws: PlistError.self) { try Plist(xml: utf16) }
        #expect(error.description == "3:14: malformed XML: xmlParseCharRef: invalid xmlChar value 8", "\(error)")
    }

    /// JavaScriptCore's test list, a real Apple file with `&#0;` and `&#8;`, which libxml2 refuses.
    @Test(.needsCorpus) func javaScriptCoresFileReads() throws {
        let value = try Plist(
            contentsOf: Paths.corpus.appendingPathComponent("xml/swiftfnd__javascriptcore_tests.plist").path)
        var strings: [String] = []
        func visit(_ value: Plist) {
            switch value {
            case .string(let string): strings.append(string)
            case .array(let elements): for element in elements { visit(element) }
            case .dictionary(let entries):
                for (key, value) in entries {
                    strings.append(key)
                    visit(value)
                }
            default: break
            }
        }
        visit(value)
        #expect(strings.contains { $0.contains("\u{8}") } && strings.contains { $0.contains("\u{0}") })
        #expect(try Plist(xml: try value.xmlBytes()) == value)
    }
}

/// Empty `.strings` tables: written as a line feed, read from no text or white space.
@Suite struct EmptyStringsTests {
    @Test func anEmptyTableIsWrittenAsALineFeedAndReadBack() throws {
        let bytes = try Plist.dictionary([:]).stringsBytes()
        #expect(bytes == [0x0A])
        #expect(try Plist.read(bytes: bytes.span) == (value: [:], format: .strings))
    }

    @Test func anEmptyFileNamedStringsIsAnEmptyTable() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("empty-strings-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["Localizable.strings", "empty.plist"] {
            FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data())
        }
        #expect(
            try Plist.read(contentsOf: folder.appendingPathComponent("Localizable.strings").path) == (
                value: [:], format: .strings
            ))
        #expect(throws: PlistError(.emptyInput, at: 0)) {
            try Plist(contentsOf: folder.appendingPathComponent("empty.plist").path)
        }
    }
}
