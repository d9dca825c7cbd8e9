import Foundation
import PlistCore
import PropertyBased
import TestSupport
import Testing

private func json(_ text: String, _ options: PlistReadOptions = .init()) throws(PlistError) -> Plist {
    try Plist(json: Array(text.utf8), options: options)
}

private func text(_ value: Plist, _ options: PlistWriteOptions = .init(sortsKeys: false)) throws -> String {
    String(decoding: try value.jsonBytes(options: options), as: UTF8.self)
}

@Suite struct JSONReaderTests {
    @Test func readsEveryKind() throws {
        let value = try json(#" { "s": "x", "i": -12, "r": 2.5, "e": 1E3, "t": true, "f": false, "a": [ ], "o": {} } "#)
        #expect(
            value.isIdentical(to: ["s": "x", "i": -12, "r": 2.5, "e": 1000.0, "t": true, "f": false, "a": [], "o": [:]])
        )
    }

    @Test(arguments: [
        ("0", Plist.integer(0)), ("-0", .integer(0)), ("-0.0", .real(-0.0)), ("1.0", .real(1)),
        ("18446744073709551615", .integer(PlistInteger(UInt64.max))),
        ("-9223372036854775808", .integer(PlistInteger(Int64.min))),
        ("18446744073709551616", .real(18_446_744_073_709_551_616)),
        ("-9223372036854775809", .real(-9_223_372_036_854_775_809)),
        ("1e400", .real(.infinity)), ("5e-324", .real(5e-324)), ("0.1", .real(0.1)),
        ("123456789012345678901234567890", .real(1.2345678901234568e29)),
    ])
    func numbers(literal: String, expected: Plist) throws {
        #expect(try json("[" + literal + "]") == [expected])
    }

    @Test func strings() throws {
        #expect(
            try json(#"["\"\\\/\b\f\n\r\t\u0041\u00e9\u6771\ud83d\ude00", "é東😀"]"#) == [
                "\"\\/\u{08}\u{0C}\n\r\tAé東😀", "é東😀",
            ])
    }

    @Test(arguments: [
        ("", "the input is empty"), ("[1,]", "1:4: expected a value, found `]`"),
        ("{\"a\":1,}", "1:8: object: expected a key in double quotes, found `}`"),
        ("[01]", "1:2: number: leading zeros are not allowed"), ("[1.]", "1:2: number: a digit must follow `.`"),
        ("[-]", "1:2: number: a digit must follow `-`"), ("[1e]", "1:2: number: the exponent needs digits"),
        ("{a:1}", "1:2: object: expected a key in double quotes, found `a`"),
        ("{\"a\" 1}", "1:6: object: expected `:` after the key, found `1`"),
        ("[\"a\n\"]", "1:4: string: a control character must be escaped (byte 0x0A)"),
        ("[\"\\x\"]", "1:3: string: unknown escape \\x"),
        ("[\"\\ud800\"]", "1:3: string: a lone surrogate \\ud800"),
        ("[\"\\udc00x\"]", "1:3: string: a lone surrogate \\udc00"),
        ("[\"\\u12\"]", "1:3: string: \\u needs four hex digits"), ("[\"abc", "1:2: the input ends inside a string"),
        ("[1, 2", "1:1: the input ends inside an array"), ("{\"a\": 1", "1:1: the input ends inside an object"),
        ("[1] [2]", "1:5: more text after the top-level value: `[`"), ("[tru]", "1:2: expected `true`"),
        ("// c\n[1]", "1:1: expected a value, found `/`"),
        ("[null]", "1:2: null has no property-list value (PlistReadOptions.jsonNull can give it one)"),
        ("\n\n   [NaN]", "3:5: expected a value, found `N`"), ("[\"\u{FF}\"]", "1:3: string: invalid UTF-8"),
        ("{\"$uid\": -1}", "1:10: $uid: a UID is not negative"),
        ("{\"$date\": 1, \"x\": 2}", "1:12: $date: a typed value must be the object's only key"),
        ("{\"$data\": \"!!\"}", "1:11: $data: not base64"),
    ])
    func errors(input: String, message: String) {
        let bytes: [UInt8] = input == "[\"\u{FF}\"]" ? [0x5B, 0x22, 0xFF, 0x22, 0x5D] : Array(input.utf8)
        #expect(throws: PlistError.self) { try Plist(json: bytes) }
        do {
            _ = try Plist(json: bytes)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func nullWhenTheCallerGivesItAValue() throws {
        #expect(try json(#"{"a": null}"#, .init(jsonNull: "")) == ["a": ""])
    }

    @Test func duplicateKeysKeepTheFirstPositionAndTheLastValue() throws {
        #expect(try json(#"{"a": 1, "b": 2, "a": 3}"#).isIdentical(to: ["a": 3, "b": 2]))
    }

    @Test func limits() throws {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(throws: PlistError(.tooDeep(limit: 512), at: 512, position: TextPosition(line: 1, column: 513))) {
            try json(deep)
        }
        #expect(throws: PlistError.self) { try json("[1,2,3]", .init(maxObjects: 3)) }
        #expect(throws: PlistError.self) { try json(#"["abcd"]"#, .init(maxContentBytes: 3)) }
        let hugeDepth = String(repeating: "[", count: 200_000)
        #expect(throws: PlistError(.tooDeep(limit: 512), at: 512, position: TextPosition(line: 1, column: 513))) {
            try json(hugeDepth)
        }
    }

    @Test func encodings() throws {
        let utf16: [UInt8] = [0xFF, 0xFE] + Array("[\"é\"]".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(try Plist(json: utf16) == ["é"])
        #expect(try Plist(json: [0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == [1])
    }
}

@Suite struct JSONWriterTests {
    private let sample: Plist = [
        "s": "a\"b\\c\n\u{01}é", "i": -3, "big": .integer(PlistInteger(UInt64.max)), "r": 1.0, "tiny": 5e-324,
        "neg": .real(-0.0), "t": true, "a": [], "o": [:], "list": [1, "x"],
    ]

    @Test func compact() throws {
        #expect(
            try text(sample)
                == #"{"s":"a\"b\\c\n\u0001é","i":-3,"big":18446744073709551615,"r":1.0,"tiny":5e-324,"neg":-0.0,"t":true,"a":[],"o":{},"list":[1,"x"]}"#
        )
    }

    @Test func indentedWithSortedKeys() throws {
        #expect(
            try text(["b": [1, ["c": true]], "a": "x", "e": []], .init(indentsJSON: true)) == """
                {
                  "a" : "x",
                  "b" : [
                    1,
                    {
                      "c" : true
                    }
                  ],
                  "e" : []
                }

                """)
    }

    @Test func strictNamesTheKeyPath() {
        let value: Plist = ["Tracks": ["1234": ["Date Added": .date(Date(timeIntervalSinceReferenceDate: 0))]]]
        #expect(
            throws: PlistError(.unrepresentable(keyPath: "Tracks.1234.Date Added", type: "date", format: "JSON"), at: 0)
        ) { try value.jsonBytes(options: .init(jsonValues: .strict)) }
        #expect(throws: PlistError(.unrepresentable(keyPath: "0", type: "float", format: "JSON"), at: 0)) {
            try Plist.array([.real(.nan)]).jsonBytes(options: .init(jsonValues: .strict))
        }
        #expect(throws: PlistError(.unrepresentable(keyPath: "a\\.b", type: "data", format: "JSON"), at: 0)) {
            try Plist.dictionary(["a.b": .data(Data())]).jsonBytes(options: .init(jsonValues: .strict))
        }
    }

    @Test func lossy() throws {
        let value: Plist = [
            "d": .date(Date(timeIntervalSinceReferenceDate: 0.5)), "b": .data(Data([1, 2, 3])), "u": .uid(9),
            "n": .real(.nan), "i": .real(-.infinity),
        ]
        #expect(
            try text(value, .init(sortsKeys: false, jsonValues: .lossy))
                == #"{"d":"2001-01-01T00:00:00.5Z","b":"AQID","u":9,"n":"NaN","i":"-Infinity"}"#)
    }

    @Test func typedValuesAndEscapedDictionaries() throws {
        let value: Plist = [
            "d": .date(Date(timeIntervalSinceReferenceDate: 0.5)), "b": .data(Data([1, 2, 3])), "u": .uid(9),
            "n": .real(.infinity), "far": .date(Date(timeIntervalSinceReferenceDate: 1e15)),
            "real1": ["$uid": 3], "real2": ["$dict": ["$date": "x"]], "two": ["$uid": 1, "x": 2],
            "other": ["$other": 1],
        ]
        let written = try text(value)
        #expect(
            written
                == #"{"d":{"$date":"2001-01-01T00:00:00.5Z"},"b":{"$data":"AQID"},"u":{"$uid":9},"n":{"$real":"inf"},"far":{"$date":1000000000000000.0},"real1":{"$dict":{"$uid":3}},"real2":{"$dict":{"$dict":{"$dict":{"$date":"x"}}}},"two":{"$dict":{"$uid":1,"x":2}},"other":{"$other":1}}"#
        )
        #expect(try json(written).isIdentical(to: value))
    }

    @Test func depthLimit() {
        var value: Plist = 1
        for _ in 0..<20 { value = [value] }
        #expect(throws: PlistError(.tooDeep(limit: 10), at: 0)) { try value.jsonBytes(options: .init(maxDepth: 10)) }
    }

    /// Every corpus file goes to typed JSON and back exactly, keys in order.
    @Test(.needsCorpus, arguments: Corpus.validBinary + Corpus.validXML + Corpus.validOpenStep)
    func corpusRoundTrip(entry: Corpus.Entry) throws {
        let expected = try Corpus.expected(entry)
        for indented in [false, true] {
            let bytes = try expected.jsonBytes(options: .init(sortsKeys: false, indentsJSON: indented))
            let back = try Plist(json: bytes)
            #expect(back.isIdentical(to: expected), "\(entry.file): \(back.firstDifference(from: expected) ?? "")")
        }
    }

    static let values = Generator { rng in PlistGenerator(profile: .everything).value(using: &rng) }

    @Test func generatedValuesRoundTrip() async {
        await propertyCheck(count: 300, input: Self.values) { value in
            let back = try Plist(json: try value.jsonBytes(options: .init(sortsKeys: false)))
            #expect(back.isIdentical(to: value.withCanonicalNaNs), "\(back.firstDifference(from: value) ?? "")")
        }
    }
}

extension Plist {
    /// The value with every NaN (real or date) replaced by the standard one: JSON text names NaN
    /// but keeps no payload or sign.
    fileprivate var withCanonicalNaNs: Plist {
        switch self {
        case .real(let real) where real.isNaN: .real(.nan)
        case .date(let date) where date.timeIntervalSinceReferenceDate.isNaN:
            .date(Date(timeIntervalSinceReferenceDate: .nan))
        case .array(let elements): .array(elements.map(\.withCanonicalNaNs))
        case .dictionary(let entries): .dictionary(entries.mapValues(\.withCanonicalNaNs))
        default: self
        }
    }
}
