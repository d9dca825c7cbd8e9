import Foundation
import PlistKit
import TestSupport
import Testing

@testable import PlistXML

/// Keys are the same key exactly when their Unicode scalars are, as CoreFoundation, libplist and
/// plistlib have it: spellings that Swift's `String` calls equal ("e\u{301}" and "\u{E9}", the
/// Angstrom sign and Å, Hangul jamo and the syllable) stay two keys through every reader and
/// writer, the lazy and streaming paths, keyed archives, and plistlib reads our output back with
/// every key. Random dictionaries of non-ASCII keys that plistlib wrote read as plistlib reads them.
@Suite struct KeyIdentityTests {
    static let pairs: [(String, String)] = [
        ("e\u{301}", "\u{E9}"), ("\u{212B}", "\u{C5}"), ("\u{1100}\u{1161}", "\u{AC00}"), ("\u{212A}", "K"),
    ]

    /// Both spellings at the top level and nested, in dictionaries small and large.
    static func value(_ a: String, _ b: String, stringsOnly: Bool = false) -> Plist {
        func scalar(_ number: Int) -> Plist { stringsOnly ? .string("v\(number)") : .integer(PlistInteger(number)) }
        var large = PlistDictionary()
        for index in 0..<20 { large["key\(index)"] = scalar(index) }
        large[b] = scalar(21)
        large[a] = scalar(22)
        let nested: PlistDictionary = [
            b: .array([.string(a), .string(b)]), a: .dictionary([a: scalar(1), b: scalar(2)]),
        ]
        return .dictionary([
            a: scalar(1), "x": scalar(3), b: scalar(2), "nested": .dictionary(nested),
            "large": .dictionary(large),
        ])
    }

    @Test(arguments: pairs)
    func everyFormatKeepsBothSpellings(_ a: String, _ b: String) throws {
        let value = Self.value(a, b)
        let strings = Self.value(a, b, stringsOnly: true)
        let cases: [(PlistFormat, PlistWriteOptions, Plist)] = [
            (.binary, .init(), value), (.xml, .init(), value), (.xml, .init(sortsKeys: false), value),
            (.json, .init(), value), (.openStep, .init(openStepValues: .gnustep), value),
            (.openStep, .init(), strings), (.strings, .init(), [a: "1", b: "2", "x": "3"]),
        ]
        for (format, options, value) in cases {
            let bytes = try value.bytes(format: format, options: options)
            #expect(try Plist(bytes: bytes) == value, "\(format) \(options.sortsKeys)")
        }
        let xml = try value.xmlBytes(options: .init(sortsKeys: false))
        #expect(try XMLReader.read(xml.span, options: .init()) == value, "libxml2")
        #expect(XMLScanner.plist(of: xml.span, options: .init()) == value, "the scanner")
        // Escaped keys go the scanner's other way: compared once unescaped.
        let escaped = Plist.dictionary(["<\(a)>": 1, "<\(b)>": 2, "<\(a)>x": 3])
        #expect(try Plist(xml: try escaped.xmlBytes()) == escaped)
    }

    @Test(arguments: pairs)
    func lazyAndStreamingPathsKeepBothSpellings(_ a: String, _ b: String) throws {
        let value = Self.value(a, b)
        let file = try BinaryPlistFile(bytes: try value.binaryBytes())
        #expect(try file.value(at: PlistKeyPath(components: [a])) == 1)
        #expect(try file.value(at: PlistKeyPath(components: [b])) == 2)
        #expect(try file.value(at: PlistKeyPath(components: ["nested", a, b])) == 2)
        #expect(try file.value(at: PlistKeyPath(components: ["large", a])) == 22)
        #expect(try file.keys() == [a, "x", b, "nested", "large"])
        #expect(try file.count(at: "large") == 22)
        #expect(try file.type(at: PlistKeyPath(components: ["nested", b])) == .array)
        var streamed: [UInt8] = []
        try file.writeXML { streamed += $0 }
        #expect(streamed == (try value.xmlBytes()))
        let folder = try TempFolder()
        defer { folder.remove() }
        let xml = folder.path("in.xml")
        let binary = folder.path("out.bplist")
        try value.write(to: xml, format: .xml)
        try PlistFile.convertXMLToBinary(at: xml, toFile: binary)
        #expect(try Plist(contentsOf: binary) == value)
    }

    /// Dictionaries with the same keys in the same order share one key storage in every reader
    /// (binary by key references, text by key sequence); others do not.
    @Test func readersShareTheKeysOfDictionariesWithTheSameKeys() throws {
        let records = Plist.array(
            (0..<30).map { index in
                ["name": .string("n\(index)"), "\u{E9}": .integer(PlistInteger(index)), "e\u{301}": true] as Plist
            } + [["\u{E9}": 1, "name": "other order", "e\u{301}": false], ["name": "fewer"]])
        let xml = try records.xmlBytes(options: .init(sortsKeys: false))
        let scanned = XMLScanner.plist(of: xml.span, options: .init())
        let reads: [(String, Plist)] = [
            ("binary", try Plist(binary: try records.binaryBytes())), ("scanner", try #require(scanned)),
            ("libxml2", try XMLReader.read(xml.span, options: .init())),
            ("JSON", try Plist(bytes: try records.jsonBytes(options: .init(sortsKeys: false)))),
            (
                "GNUstep",
                try Plist(bytes: try records.openStepBytes(options: .init(sortsKeys: false, openStepValues: .gnustep)))
            ),
        ]
        for (reader, value) in reads {
            #expect(value == records, "\(reader)")
            let dictionaries = try #require(value.array).compactMap(\.dictionary)
            #expect(dictionaries.dropLast(2).allSatisfy { $0.keyStorage === dictionaries[0].keyStorage }, "\(reader)")
            #expect(dictionaries.suffix(2).allSatisfy { $0.keyStorage !== dictionaries[0].keyStorage }, "\(reader)")
        }
    }

    @Test(arguments: pairs)
    func keyPathsNameOneSpelling(_ a: String, _ b: String) throws {
        var value = Plist.dictionary([b: 2])
        try value.insert(1, at: PlistKeyPath(components: [a]))
        #expect(value == [b: 2, a: 1])
        try value.replace(10, at: PlistKeyPath(components: [a]))
        try value.remove(at: PlistKeyPath(components: [b]))
        #expect(value == [a: 10])
        #expect(PlistKeyPath(parsing: a) != PlistKeyPath(parsing: b))
        #expect(Set([PlistKeyPath(parsing: a), PlistKeyPath(parsing: b)]).count == 2)
        // A dot followed by a combining mark still separates components.
        #expect(PlistKeyPath(parsing: "x.\u{301}").components == ["x", "\u{301}"])
        #expect(PlistKeyPath(components: ["a.\u{301}"]).description == "a\\.\u{301}")
        #expect(
            PlistKeyPath(parsing: PlistKeyPath(components: ["a.\u{301}", "b"]).description).components
                == ["a.\u{301}", "b"])
    }

    @Test(arguments: pairs)
    func keyedArchivesKeepBothSpellings(_ a: String, _ b: String) throws {
        let value = Plist.dictionary([a: .string(a), b: .string(b)])
        let archive = try KeyedArchiver().archive(value)
        #expect(try KeyedUnarchiver(plist: archive).decodeRoot(Plist.self) == value)
        let resolved = try KeyedArchive.resolve(archive)["root"]
        #expect(resolved == ["$class": "NSDictionary", a: .string(a), b: .string(b)])
        // Strings are stored once each, by their exact spelling.
        let strings = Plist.array([.string(a), .string(b), .string(a)])
        #expect(try KeyedUnarchiver(plist: try KeyedArchiver().archive(strings)).decodeRoot(Plist.self) == strings)
    }

    /// plistlib reads our binary and XML output with every key and value.
    @Test(.needsPlistOracle, arguments: pairs)
    func plistlibReadsEveryKey(_ a: String, _ b: String) throws {
        let value = Self.value(a, b)
        #expect(try PlistOracle.read(try value.binaryBytes()) == value)
        #expect(try PlistOracle.read(try value.xmlBytes(), format: "xml") == value)
    }

    /// Dictionaries of random non-ASCII keys written by plistlib (binary, XML in insertion order,
    /// JSON) read as plistlib reads them, key by key, through every reader: the binary tree
    /// reader, the lazy reader, the XML scanner and libxml2, the streaming converters and JSON.
    @Test(.needsPython3)
    func randomNonASCIIKeysReadAsPlistlibReadsThem() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let count = 40
        let script = """
            import json, plistlib, random, sys
            folder, count = sys.argv[1], int(sys.argv[2])
            rng = random.Random(34)
            pieces = ["e\\u0301", "\\u00e9", "\\u212b", "\\u00c5", "A\\u030a", "\\u1100\\u1161", "\\uac00", "\\u212a",
                      "K", "\\u2126", "\\u03a9", "\\u037e", ";", "\\U0001F600", "\\u00fc", "u\\u0308", "x"]
            for case in range(count):
                entries = {}
                for _ in range(rng.choice([1, 3, 15, 16, 17, 40])):
                    key = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 3)))
                    entries[key] = rng.randint(-5, 1000)
                base = f"{folder}/{case}"
                with open(base + ".bplist", "wb") as f: plistlib.dump(entries, f, fmt=plistlib.FMT_BINARY, sort_keys=False)
                with open(base + ".xml", "wb") as f: plistlib.dump(entries, f, sort_keys=False)
                with open(base + ".json", "w") as f: json.dump(entries, f)
                with open(base + ".keys", "w") as f:
                    json.dump([[[ord(c) for c in k], v] for k, v in entries.items()], f)
            """
        let python = try #require(Oracles.python3)
        let status = try ChildProcess.run(
            python.path, ["-c", script, folder.url.path, String(count)], stderr: folder.path("python.err"))
        let errors = String(decoding: (try? folder.read("python.err")) ?? [], as: UTF8.self)
        try #require(status == 0, "\(errors)")
        for index in 0..<count {
            let base = folder.path(String(index))
            let listed = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: base + ".keys")))
            var expected = PlistDictionary()
            for case let pair as [Any] in listed as? [Any] ?? [] {
                let scalars = (pair[0] as? [Int] ?? []).compactMap { Unicode.Scalar(UInt32($0)) }
                expected[String(String.UnicodeScalarView(scalars))] = .integer(PlistInteger(pair[1] as? Int ?? 0))
            }
            try #require(expected.count > 0)
            let value = Plist.dictionary(expected)
            let binary = try Paths.bytes(URL(fileURLWithPath: base + ".bplist"))
            let xml = try Paths.bytes(URL(fileURLWithPath: base + ".xml"))
            func expectInOrder(_ read: Plist, _ reader: String) {
                #expect(read == value, "\(reader), case \(index)")
                #expect(read.dictionary?.keys.elements == expected.keys.elements, "\(reader) order, case \(index)")
            }
            expectInOrder(try Plist(binary: binary), "binary")
            expectInOrder(try XMLReader.read(xml.span, options: .init()), "libxml2")
            let scanned = XMLScanner.plist(of: xml.span, options: .init())
            expectInOrder(try #require(scanned), "scanner")
            #expect(try Plist(bytes: try Paths.bytes(URL(fileURLWithPath: base + ".json"))) == value, "JSON \(index)")
            let file = try BinaryPlistFile(bytes: binary)
            #expect(try file.keys() == expected.keys.elements, "lazy keys, case \(index)")
            for (key, number) in expected {
                #expect(try file.value(at: PlistKeyPath(components: [key])) == number, "lazy, case \(index)")
            }
            var streamed: [UInt8] = []
            try file.writeXML { streamed += $0 }
            #expect(try Plist(xml: streamed) == value, "binary to XML streamed, case \(index)")
            let converted = base + ".converted"
            try PlistFile.convertXMLToBinary(at: base + ".xml", toFile: converted)
            expectInOrder(try Plist(contentsOf: converted), "XML to binary streamed")
        }
    }
}

/// `PlistDecoder` matches keys as Foundation's `PropertyListDecoder` does, compared in the same
/// process: as Swift strings, so a `CodingKey` spelled one way finds a key spelled the other way,
/// and of two spellings in one dictionary the last in the file wins (Foundation keys its
/// containers by `String`; for binary files its choice follows its hash order, so there the test
/// only asks that Foundation's value be one of the two).
@Suite struct CodableKeyMatchingTests {
    protocol OneKey: Codable, Equatable {
        static var key: String { get }
        var value: Int { get }
    }

    struct Decomposed: OneKey {
        static let key = "e\u{301}"
        var value: Int
        enum CodingKeys: String, CodingKey { case value = "e\u{301}" }
    }

    struct Composed: OneKey {
        static let key = "\u{E9}"
        var value: Int
        enum CodingKeys: String, CodingKey { case value = "\u{E9}" }
    }

    struct Kelvin: OneKey {
        static let key = "K"
        var value: Int
        enum CodingKeys: String, CodingKey { case value = "K" }
    }

    static let documents: [(name: String, value: Plist)] = [
        ("decomposed", ["e\u{301}": 1, "x": 3]),
        ("composed", ["\u{E9}": 2, "x": 3]),
        ("decomposed then composed", ["e\u{301}": 1, "x": 3, "\u{E9}": 2]),
        ("composed then decomposed", ["\u{E9}": 2, "e\u{301}": 1]),
        ("Kelvin sign", ["\u{212A}": 4, "x": 3]),
        ("K then Kelvin sign", ["K": 5, "\u{212A}": 4]),
    ]

    static func compare<T: OneKey>(_ type: T.Type, _ value: Plist, _ name: String) throws {
        let xml = Data(try value.xmlBytes(options: .init(sortsKeys: false)))
        let binary = Data(try value.binaryBytes())
        let foundationXML = Result { try PropertyListDecoder().decode(T.self, from: xml) }
        let oursXML = Result { try PlistDecoder().decode(T.self, from: xml) }
        #expect(
            String(describing: try? oursXML.get()) == String(describing: try? foundationXML.get()),
            "XML, \(name), \(T.self)")
        #expect(
            String(describing: try? PlistDecoder().decode(T.self, from: value))
                == String(describing: try? oursXML.get()),
            "tree, \(name), \(T.self)")
        let oursBinary = Result { try PlistDecoder().decode(T.self, from: binary) }
        #expect(
            String(describing: try? oursBinary.get()) == String(describing: try? oursXML.get()),
            "binary, \(name), \(T.self)")
        switch (try? PropertyListDecoder().decode(T.self, from: binary), try? oursBinary.get()) {
        case (nil, nil): break
        case (let foundation?, _?):
            // Swift's `==` on purpose: the keys Foundation takes for this one.
            let candidates = value.dictionary!.filter { $0.key == T.key }.values.compactMap(\.int)
            #expect(
                candidates.contains(foundation.value), "Foundation's binary choice is one of the spellings, \(name)")
        default: Issue.record("binary: one decoder found the key and not the other, \(name), \(T.self)")
        }
    }

    @Test(arguments: documents.indices)
    func keyedContainersMatchAsFoundationDoes(_ index: Int) throws {
        let (name, value) = Self.documents[index]
        try Self.compare(Decomposed.self, value, name)
        try Self.compare(Composed.self, value, name)
        try Self.compare(Kelvin.self, value, name)
    }

    /// `[String: V]` and `allKeys` hold one key per spelling class, as Foundation's do: the
    /// first spelling, with the last value.
    @Test(arguments: documents.indices)
    func dictionariesAndAllKeysMatchFoundation(_ index: Int) throws {
        let (name, value) = Self.documents[index]
        let xml = Data(try value.xmlBytes(options: .init(sortsKeys: false)))
        let ours = try PlistDecoder().decode([String: Int].self, from: xml)
        let foundation = try PropertyListDecoder().decode([String: Int].self, from: xml)
        #expect(ours == foundation, "\(name)")
        #expect(ours.keys.map(\.unicodeScalars.count).sorted() == foundation.keys.map(\.unicodeScalars.count).sorted())
        let fromTree = try PlistDecoder().decode([String: Int].self, from: value)
        #expect(fromTree == foundation && fromTree.count == foundation.count, "\(name), tree")
    }
}
