import Foundation
import PlistKit
import TestSupport
import Testing

/// XML documents are decoded from the scanner's table when it reads them: the results are the
/// tree's, and so are the errors (with their line and column); documents it declines are
/// decoded through libxml2 as before.
@Suite struct CodableXMLTableTests {
    private struct Track: Codable, Equatable {
        var id: Int
        var name: String
        var size: UInt32
        var rating: Int8?
        var loved: Bool?
        var added: Date
        var artwork: Data?
        var ratio: Double
        var tags: [String]
        var url: URL?

        enum CodingKeys: String, CodingKey {
            case id = "Track ID"
            case name = "Name"
            case size = "Size"
            case rating = "Rating"
            case loved = "Loved"
            case added = "Date Added"
            case artwork = "Artwork"
            case ratio = "Ratio"
            case tags = "Tags"
            case url = "URL"
        }
    }

    private struct Library: Codable, Equatable {
        var tracks: [String: Track]
        var order: [Int]
        var nothing: String?
    }

    private static func document(_ body: String) -> Data {
        Data(
            ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" "
                + "\"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n\(body)\n</plist>\n")
                .utf8)
    }

    /// Sorted keys (binary search), unsorted keys, entities in keys and strings, missing
    /// optional keys, `$null`, a URL (`{relative}`), reals from integers, an integer from a real.
    static let library = document(
        """
        <dict>
        \t<key>order</key><array><integer>2</integer><real>1</real></array>
        \t<key>nothing</key><string>$null</string>
        \t<key>tracks</key>
        \t<dict>
        \t\t<key>1</key>
        \t\t<dict>
        \t\t\t<key>Artwork</key><data>AAEC</data>
        \t\t\t<key>Date Added</key><date>2020-05-06T07:08:09Z</date>
        \t\t\t<key>Loved</key><true/>
        \t\t\t<key>Name</key><string>Caf\u{E9} &amp; &#x1F600;</string>
        \t\t\t<key>Ratio</key><integer>2</integer>
        \t\t\t<key>Size</key><integer>4294967295</integer>
        \t\t\t<key>Tags</key><array><string>a</string><string/></array>
        \t\t\t<key>Track ID</key><integer>1</integer>
        \t\t\t<key>URL</key><dict><key>relative</key><string>https://example.com/a?b=1&amp;c=2</string></dict>
        \t\t</dict>
        \t\t<key>2</key>
        \t\t<dict>
        \t\t\t<key>Track ID</key><integer>0x2</integer>
        \t\t\t<key>Name</key><string>line\r\nend</string>
        \t\t\t<key>Size</key><integer>7</integer>
        \t\t\t<key>Rating</key><real>-5</real>
        \t\t\t<key>Date Added</key><date>1999-12-31T23:59:59Z</date>
        \t\t\t<key>Ratio</key><real>0.25</real>
        \t\t\t<key>Tags</key><array/>
        \t\t\t<key>Loved</key><string>$null</string>
        \t\t</dict>
        \t</dict>
        </dict>
        """)

    @Test func decodesAsFromTheTree() throws {
        let tree = try Plist(bytes: [UInt8](Self.library))
        var format = PlistFormat.binary
        let decoded = try PlistDecoder().decode(Library.self, from: Self.library, format: &format)
        #expect(format == .xml)
        #expect(decoded == (try PlistDecoder().decode(Library.self, from: tree)))
        let first = try #require(decoded.tracks["1"])
        #expect(first.name == "Caf\u{E9} & \u{1F600}")
        #expect(first.size == UInt32.max)
        #expect(first.artwork == Data([0, 1, 2]))
        #expect(first.url == URL(string: "https://example.com/a?b=1&c=2"))
        #expect(first.ratio == 2)
        let second = try #require(decoded.tracks["2"])
        #expect(second.name == "line\nend")
        #expect(second.size == 7 && second.rating == -5 && second.loved == nil && second.id == 2)
        #expect(decoded.order == [2, 1] && decoded.nothing == nil)
    }

    /// Dictionaries out of key order, of few keys (searched row by row) and of many (searched in
    /// sorted rows), whose keys share their first 8 or 15 bytes or are prefixes of each other:
    /// every key finds its own value, as PropertyListDecoder finds it.
    @Test(arguments: [3, 64, 65, 130])
    func findsKeysOutOfOrderAsFoundation(count: Int) throws {
        let keys = (0..<count).map { index -> String in
            switch index % 3 {
            case 0: "abcdefghijklmno\(index)"
            case 1: "abcdefgh\(index)"
            default: "k" + String(repeating: "x", count: index % 20)
            }
        }.reversed()
        let body = "<dict>" + keys.map { "<key>\($0)</key><string>\($0)</string>" }.joined() + "</dict>"
        let data = Self.document(body)
        let ours = try PlistDecoder().decode([String: String].self, from: data)
        #expect(ours == (try PropertyListDecoder().decode([String: String].self, from: data)))
        struct Probe: Decodable, Equatable {
            var values: [String] = []
            struct Key: CodingKey {
                var stringValue: String
                init(stringValue: String) { self.stringValue = stringValue }
                var intValue: Int? { nil }
                init?(intValue: Int) { nil }
            }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Key.self)
                for name in [
                    "abcdefghijklmno0", "abcdefghijklmno", "abcdefgh1", "abcdefgh", "k", "kx", "kxxxxxxxxxxxxxxxxxxx",
                ] {
                    values.append(try container.decodeIfPresent(String.self, forKey: Key(stringValue: name)) ?? "-")
                }
            }
        }
        let probed = try PlistDecoder().decode(Probe.self, from: data)
        #expect(probed == (try PropertyListDecoder().decode(Probe.self, from: data)))
        #expect(probed.values.first == "abcdefghijklmno0")
    }

    /// A value that does not fit: the error, coding path and place (line, and the column where
    /// libxml2 reports the start tag) come from the table, without reading the document again.
    @Test(arguments: [
        ("<integer>300</integer>", "Parsed property list number <300> does not fit in Int8, at line 6, column 31."),
        (
            "<string>x</string>",
            #"Expected to decode Int8 but found a string ("x") instead, at line 6, column 30."#
        ),
        ("<dict/>", "Expected to decode Int8 but found a dictionary instead, at line 6, column 28."),
    ])
    func errorsSayWhereTheValueIs(value: String, message: String) throws {
        struct Small: Decodable { var value: Int8 }
        struct Wrapper: Decodable { var items: [Small] }
        let data = Self.document(
            "<dict><key>items</key><array>\n<dict><key>value</key><integer>1</integer></dict>\n"
                + "<dict><key>value</key>\(value)</dict>\n</array></dict>")
        let error = try #require(throws: DecodingError.self) { try PlistDecoder().decode(Wrapper.self, from: data) }
        guard case .typeMismatch = error else {
            guard case .dataCorrupted(let context) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(context.debugDescription == message)
            return
        }
        #expect(error.context?.debugDescription == message)
        #expect(error.context?.codingPath.map(\.stringValue) == ["items", "Index 1", "value"])
    }

    /// Documents the scanner declines decode through libxml2: the same values, the same errors.
    @Test func declinedDocumentsDecodeThroughLibXML2() throws {
        struct Named: Decodable, Equatable { var name: String }
        let cdata = Self.document("<dict><key>name</key><string><![CDATA[a < b]]></string></dict>")
        #expect(try PlistDecoder().decode(Named.self, from: cdata) == Named(name: "a < b"))
        let malformed = Self.document("<dict><key>name</key><string>a < b</string></dict>")
        let error = try #require(throws: DecodingError.self) { try PlistDecoder().decode(Named.self, from: malformed) }
        let readerError = try #require(throws: PlistError.self) { try Plist(bytes: [UInt8](malformed)) }
        #expect(error.context?.debugDescription == "The data is not a valid property list: \(readerError)")
        #expect((error.context?.underlyingError as? PlistError) == readerError)
    }

    /// The decoder's own limits hold for the table too.
    @Test func depthLimitHolds() throws {
        struct Node: Decodable { var children: [Node] }
        var body = "<dict><key>children</key><array/></dict>"
        for _ in 0..<300 { body = "<dict><key>children</key><array>\(body)</array></dict>" }
        let data = Self.document(body)
        let error = try #require(throws: DecodingError.self) { try PlistDecoder().decode(Node.self, from: data) }
        #expect((error.context?.underlyingError as? PlistError)?.kind == .tooDeep(limit: 512))
        let decoder = PlistDecoder()
        decoder.readOptions.maxDepth = 1000
        #expect(try decoder.decode(Node.self, from: data).children.count == 1)
    }

    private struct Name: CodingKey {
        var stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    /// The keys in `userInfo[order]` looked up one by one, in that order.
    private struct Lookup: Decodable, Equatable {
        var found: [String: Int] = [:]
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Name.self)
            for name in decoder.userInfo[Self.order] as! [String] {
                found[name] = try container.decodeIfPresent(Int.self, forKey: Name(stringValue: name))
            }
        }
        static let order = CodingUserInfoKey(rawValue: "order")!
    }

    /// Every key of a dictionary is found wherever it is asked for, and no other, whatever the
    /// order of its keys (sorted: the document's order is searched; not sorted: the scanner's
    /// sorted copy of the keys): keys that share their first 8 or 15 bytes, shorter and longer
    /// than 15 bytes, at the ends, asked for in random orders, with keys missing from the
    /// dictionary. The tree, searched by `OrderedDictionary`, is the reference.
    @Test(arguments: [true, false])
    func findsEveryKeyInAnyOrder(sorted: Bool) throws {
        let candidates = [
            "", "A", "Play", "Play Count", "Play Date", "Play Date UTC", "abcdefgh", "abcdefghi",
            "abcdefghijklmn", "abcdefghijklmno", "abcdefghijklmnoa", "abcdefghijklmnop", "abcdefghijklmnopq",
            "abcdefghijklmnoq", "abcdefghijklmnp", "z", "zzzzzzzzzzzzzzzzzzzz", "com.example.app.key1",
            "com.example.app.key10", "com.example.app.key2",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var present = candidates.filter { _ in Bool.random(using: &generator) }.shuffled(using: &generator)
            if sorted { present.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
            let body = present.enumerated().map { "<key>\($1)</key><integer>\($0)</integer>" }.joined()
            let decoder = PlistDecoder()
            decoder.userInfo[Lookup.order] = candidates.shuffled(using: &generator)
            let document = Self.document("<dict>\(body)</dict>")
            let found = try decoder.decode(Lookup.self, from: document).found
            #expect(found == Dictionary(uniqueKeysWithValues: present.enumerated().map { ($1, $0) }), "\(present)")
            #expect(try decoder.decode(Lookup.self, from: try Plist(bytes: [UInt8](document))).found == found)
        }
    }

    /// The library laid out as other writers lay it out (keys in other orders, indented with
    /// spaces or not at all, CRLF line endings, comments between elements) decodes from the
    /// table as from the tree.
    @Test(arguments: [
        ("\t", "\n", ""), ("  ", "\n", ""), ("", "\n", ""), ("", "\r\n", ""), ("\t", "\r\n", "<!-- a comment -->"),
        (" ", "\n", "<!---->"),
    ])
    func decodesEveryLayoutAsFromTheTree(indentation: String, newline: String, comment: String) throws {
        let text = String(decoding: Self.library, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(repeating: indentation, count: line.prefix { $0 == "\t" }.count) + line.drop { $0 == "\t" }
        }
        let joined = lines.joined(separator: newline).replacing("</key>", with: "</key>\(comment)")
        let data = Data(joined.utf8)
        let decoded = try PlistDecoder().decode(Library.self, from: data)
        #expect(decoded == (try PlistDecoder().decode(Library.self, from: try Plist(bytes: [UInt8](data)))))
        #expect(decoded == (try PlistDecoder().decode(Library.self, from: Self.library)))
        #expect(decoded.tracks.count == 2 && decoded.order == [2, 1])
    }

    /// A type that counts how often it is decoded, for `initFromRunsOnceWhenAValueDoesNotFit`.
    private final class Counter: @unchecked Sendable {
        var count = 0
    }

    private struct Counted: Decodable {
        static let key = CodingUserInfoKey(rawValue: "counter")!
        var value: Int8

        init(from decoder: any Decoder) throws {
            (decoder.userInfo[Self.key] as! Counter).count += 1
            value = try decoder.container(keyedBy: CodingKeys.self).decode(Int8.self, forKey: .value)
        }

        enum CodingKeys: CodingKey { case value }
    }

    /// An error is located from the table: the document is read once and `init(from:)` runs
    /// once (the decoder used to read the document twice more, through libxml2, and decode again).
    @Test func initFromRunsOnceWhenAValueDoesNotFit() throws {
        let counter = Counter()
        let decoder = PlistDecoder()
        decoder.userInfo[Counted.key] = counter
        let data = Self.document("<dict>\n\t<key>value</key>\n\t<integer>300</integer>\n</dict>")
        let error = try #require(throws: DecodingError.self) { try decoder.decode(Counted.self, from: data) }
        #expect(counter.count == 1)
        #expect(error.context?.debugDescription.hasSuffix(", at line 6, column 10.") == true)
    }

    /// The table places every value where libxml2 places it (the line, and the column where its
    /// start tag ends), in documents of every layout: random values written sorted and in order,
    /// with tabs, spaces or no indentation, CRLF, text beyond ASCII before the values.
    @Test func placesEveryValueWhereLibXML2Does() throws {
        var random = SeededRandom(seed: 9)
        let generator = PlistGenerator(profile: .foundationSafe, maxDepth: 4, maxNodes: 120)
        var checked = 0
        for round in 0..<12 {
            // UIDs are `CF$UID` dictionaries, which the table leaves to libxml2; references to
            // characters XML forbids (`&#0;`) only the scanner reads, libxml2 stops there.
            func clean(_ text: String) -> String {
                String(
                    String.UnicodeScalarView(
                        text.unicodeScalars.filter {
                            $0.value >= 0x20 && $0.value != 0xFFFE && $0.value != 0xFFFF || $0 == "\t" || $0 == "\n"
                        }))
            }
            func withoutUIDs(_ value: Plist) -> Plist {
                switch value {
                case .uid(let uid): return .integer(PlistInteger(uid))
                case .string(let text): return .string(clean(text))
                case .array(let elements): return .array(elements.map(withoutUIDs))
                case .dictionary(let entries):
                    var cleaned = PlistDictionary()
                    for (key, value) in entries { cleaned[clean(key)] = withoutUIDs(value) }
                    return .dictionary(cleaned)
                default: return value
                }
            }
            var value = withoutUIDs(generator.value(using: &random))
            if value.dictionary == nil, value.array == nil { value = ["v\u{E9}": value, "w": [value]] }
            var options = PlistWriteOptions()
            options.sortsKeys = round % 2 == 0
            var text = String(decoding: try value.xmlBytes(options: options), as: UTF8.self)
            switch round % 4 {
            case 1: text = text.replacing("\t", with: "  ")
            case 2: text = text.split(separator: "\n").map { $0.drop { $0 == "\t" } }.joined(separator: "\r\n")
            case 3:
                text = text.replacing("<plist version=\"1.0\">", with: "<plist version=\"1.0\"><!-- \u{E9}t\u{E9} -->")
            default: break
            }
            let bytes = Array(text.utf8)
            let table = try #require(XMLScanner.table(of: bytes, options: PlistReadOptions()), "round \(round)")
            func walk(_ node: Int, _ path: [PlistPathStep]) throws {
                if !path.isEmpty {
                    #expect(
                        table.position(of: node)
                            == Plist.position(of: path, inXML: bytes.span, options: PlistReadOptions()),
                        "\(path) in round \(round)")
                    checked += 1
                }
                switch table.kind(of: node) {
                case .dictionary:
                    guard case .entries(let entries) = try table.dictionary(node, depth: path.count) else { return }
                    for index in 0..<entries.count {
                        try walk(table.value(index, of: entries), path + [.key(table.key(index, of: entries))])
                    }
                case .array:
                    let elements = try table.array(node, depth: path.count)
                    for index in 0..<elements.count {
                        try walk(table.element(index, of: elements), path + [.index(index)])
                    }
                case .scalar:
                    break
                }
            }
            try walk(table.top, [])
        }
        #expect(checked > 300)
    }
}
