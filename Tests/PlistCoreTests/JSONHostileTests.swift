import Foundation
import PlistCore
import Testing

/// The JSON reader against hostile input, beyond JSONTests: every truncation of a small
/// document, nesting far past the limit (typed values included), invalid UTF-8 and UTF-16,
/// lone surrogate escapes, huge numbers, unterminated tokens; each with its exact error and place.
/// Hostile inputs must fail at once, never hang: each test has a time limit (a hang guard, not
/// a speed measurement).
@Suite(.timeLimit(.minutes(10))) struct JSONHostileTests {
    private func failure(_ bytes: [UInt8]) throws -> PlistError {
        try #require(throws: PlistError.self) { try Plist(json: bytes) }
    }

    private func failure(_ text: String) throws -> PlistError { try failure(Array(text.utf8)) }

    /// Every kind of value in 69 bytes on two lines.
    static let small = "{\"a\": [1, -2.5e3, true, false, \"x\\u00e9\\n\"],\n \"d\": {\"$data\": \"AP8=\"}}"

    @Test func theSmallDocumentReads() throws {
        #expect(
            try Plist(json: Array(Self.small.utf8))
                == ["a": [1, -2500.0, true, false, "xé\n"], "d": .data(Data([0x00, 0xFF]))])
    }

    /// Each prefix fails where the unfinished token or container starts (or, for a literal or
    /// number cut short, where it starts with what it lacks).
    @Test func everyTruncationIsAnErrorAtItsPlace() throws {
        let expected: [(Range<Int>, String)] = [
            (0..<1, "the input is empty"),
            (1..<2, "1:1: the input ends inside an object"),
            (2..<4, "1:2: the input ends inside a string"),
            (4..<7, "1:1: the input ends inside an object"),
            (7..<11, "1:7: the input ends inside an array"),
            (11..<12, "1:11: number: a digit must follow `-`"),
            (12..<13, "1:7: the input ends inside an array"),
            (13..<14, "1:11: number: a digit must follow `.`"),
            (14..<15, "1:7: the input ends inside an array"),
            (15..<16, "1:11: number: the exponent needs digits"),
            (16..<19, "1:7: the input ends inside an array"),
            (19..<22, "1:19: expected `true`"),
            (22..<25, "1:7: the input ends inside an array"),
            (25..<29, "1:25: expected `false`"),
            (29..<32, "1:7: the input ends inside an array"),
            (32..<34, "1:32: the input ends inside a string"),
            (34..<35, "1:34: the input ends inside a string"),
            (35..<39, "1:34: the input ends inside a \\u escape"),
            (39..<40, "1:32: the input ends inside a string"),
            (40..<41, "1:40: the input ends inside a string"),
            (41..<42, "1:32: the input ends inside a string"),
            (42..<43, "1:7: the input ends inside an array"),
            (43..<47, "1:1: the input ends inside an object"),
            (47..<49, "2:2: the input ends inside a string"),
            (49..<52, "1:1: the input ends inside an object"),
            (52..<53, "2:7: the input ends inside an object"),
            (53..<59, "2:8: the input ends inside a string"),
            (59..<62, "2:7: the input ends inside an object"),
            (62..<67, "2:17: the input ends inside a string"),
            (67..<68, "2:7: the input ends inside an object"),
            (68..<69, "1:1: the input ends inside an object"),
        ]
        let bytes = Array(Self.small.utf8)
        #expect(expected.map(\.0.count).reduce(0, +) == bytes.count)
        for (lengths, message) in expected {
            for length in lengths {
                #expect(try failure(Array(bytes[0..<length])).description == message, "\(length)")
            }
        }
    }

    /// 100,000 levels of each kind of container stop at the 513th, where it starts; typed values
    /// (`{"$date": ...}`) nest like objects, and their frames stay small enough for 512 of them
    /// on a thread with a small stack (a test's, in a debug build).
    @Test(arguments: [
        ("[", 1, 513), ("{\"a\":", 5, 2561), ("[{\"a\":", 6, 1537), ("{\"$date\":", 9, 4609),
        ("{\"$dict\":", 9, 4609), ("{\"$dict\":{\"a\":", 14, 3585), ("{\"$uid\":[", 9, 2305),
    ])
    func nestingFarPastTheLimitStopsWhereTheDeepContainerStarts(opening: String, length: Int, column: Int) throws {
        #expect(opening.utf8.count == length)
        let error = try failure(String(repeating: opening, count: 100_000))
        #expect(error.kind == .tooDeep(limit: 512))
        #expect(error.position == TextPosition(line: 1, column: column))
        #expect(
            error.description
                == "1:\(column): containers are nested deeper than the limit of 512 (raise maxDepth to allow more)")
    }

    /// Bytes that are not UTF-8, in a value, in a key (after an escape) and between tokens:
    /// refused at the first bad byte.
    @Test(
        arguments: [
            [0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xF5, 0x80, 0x80, 0x80], [0xFF],
            [0xF4, 0x90, 0x80, 0x80],
        ] as [[UInt8]])
    func invalidUTF8(bad: [UInt8]) throws {
        let value = Array("[\"ab".utf8) + bad + Array("c\"]".utf8)
        #expect(try failure(value).description == "1:5: string: invalid UTF-8")
        let key = Array("{\"k\\n".utf8) + bad + Array("\": 1}".utf8)
        #expect(try failure(key).description == "1:6: string: invalid UTF-8")
        let outside = Array("[1, ".utf8) + bad + Array("]".utf8)
        let hex = String(bad[0], radix: 16, uppercase: true)
        #expect(try failure(outside).description == "1:5: expected a value, found byte 0x\(hex)")
    }

    @Test(arguments: [
        ("\\ud800", "lone surrogate \\ud800"), ("\\ud800\\u0041", "lone surrogate \\ud800"),
        ("\\udc00", "lone surrogate \\udc00"), ("\\ud800\\ud800", "lone surrogate \\ud800"),
        ("\\ud800\\", "lone surrogate \\ud800"), ("\\ud800x", "lone surrogate \\ud800"),
        ("\\uzzzz", "\\u needs four hex digits"), ("\\ud800\\uzz", "\\u needs four hex digits"),
    ])
    func invalidSurrogateEscapes(escape: String, detail: String) throws {
        let message = detail.hasPrefix("lone") ? "a " + detail : detail
        #expect(try failure("[\"a\(escape)\"]").description == "1:4: string: " + message)
    }

    @Test func validSurrogatePairsRead() throws {
        #expect(try Plist(json: Array(#"["\uDBFF\uDFFF\ud83d\ude00"]"#.utf8)) == ["\u{10FFFF}😀"])
    }

    /// UTF-16 text (little- and big-endian, with a byte-order mark) holding an unpaired
    /// surrogate: refused at its byte in the input.
    @Test func unpairedSurrogatesInUTF16Text() throws {
        let little: [UInt8] = [0xFF, 0xFE, 0x5B, 0, 0x22, 0, 0x00, 0xD8, 0x22, 0, 0x5D, 0]
        #expect(try failure(little) == PlistError(.invalidUTF16, at: 6))
        let big: [UInt8] = [0xFE, 0xFF, 0, 0x5B, 0, 0x22, 0xDC, 0x00, 0, 0x22, 0, 0x5D]
        #expect(try failure(big) == PlistError(.invalidUTF16, at: 6))
    }

    /// Numbers beyond `Double` read as infinities (and below it as zero), as in JSONTests; a
    /// million digits take well under a second.
    @Test func hugeNumbers() throws {
        let nines = String(repeating: "9", count: 400)
        let cases: [(String, Plist)] = [
            ("1e400", .real(.infinity)), ("-1e400", .real(-.infinity)), ("1e-400", .real(0)),
            (nines, .real(.infinity)), ("-" + nines, .real(-.infinity)),
            ("1e" + String(repeating: "9", count: 100), .real(.infinity)),
            ("0." + String(repeating: "0", count: 1000) + "1", .real(0)),
        ]
        for (literal, value) in cases {
            #expect(try Plist(json: Array("[\(literal)]".utf8)) == [value], "\(literal.prefix(12))")
        }
        // Integers read as integers up to UInt64 and down to Int64; past them, as reals (as in
        // Python's json).
        #expect(try Plist(json: Array("[18446744073709551615]".utf8)) == [.integer(PlistInteger(UInt64.max))])
        #expect(try Plist(json: Array("[-9223372036854775808]".utf8)) == [.integer(PlistInteger(Int64.min))])
        #expect(try Plist(json: Array("[18446744073709551616]".utf8)) == [.real(18_446_744_073_709_551_616)])
        let million = String(repeating: "7", count: 1_000_000)
        #expect(try Plist(json: Array("[\(million)]".utf8)) == [.real(.infinity)])
        #expect(try Plist(json: Array("[1e\(million)]".utf8)) == [.real(.infinity)])
        #expect(try Plist(json: Array("[1.\(million)]".utf8)) == [.real(1.7777777777777777)])
    }

    @Test(arguments: [
        ("\"abc", "1:1: the input ends inside a string"), ("{\"a", "1:2: the input ends inside a string"),
        ("{\"a\": \"", "1:7: the input ends inside a string"), ("[\"a\\", "1:4: the input ends inside a string"),
        ("[\"\\u12", "1:3: the input ends inside a \\u escape"), ("[\"a\\\"]", "1:2: the input ends inside a string"),
        ("\"", "1:1: the input ends inside a string"), ("t", "1:1: expected `true`"), ("fals", "1:1: expected `false`"),
        ("{\"a\":1,\"b\"", "1:1: the input ends inside an object"),
        ("{\"$date\": \"2001-01-01T00:00:00Z\"", "1:1: the input ends inside an object"),
        ("[{\"$data\": \"AA==\"", "1:2: the input ends inside an object"),
        ("\n\n  [1,\n", "3:3: the input ends inside an array"),
    ])
    func unterminatedTokens(text: String, message: String) throws {
        #expect(try failure(text).description == message)
    }
}
