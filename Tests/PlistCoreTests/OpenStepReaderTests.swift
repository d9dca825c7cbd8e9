import Foundation
import PlistCore
import TestSupport
import Testing

/// The OpenStep / GNUstep / `.strings` reader: every construct, every error with its exact
/// line:column message, and the shared corpus against the oracle.
@Suite struct OpenStepReaderTests {
    func read(_ text: String, options: PlistReadOptions = .init()) throws(PlistError) -> Plist {
        try Plist(openStep: Array(text.utf8), options: options)
    }

    func failure(_ text: String, options: PlistReadOptions = .init()) -> String? {
        do {
            _ = try read(text, options: options)
            return nil
        } catch {
            return error.description
        }
    }

    // MARK: Constructs

    @Test func dictionary() throws {
        let value = try read("{ a = b; \"c d\" = 'e f'; }")
        #expect(value.isIdentical(to: .dictionary(["a": "b", "c d": "e f"])))
    }

    @Test func emptyContainers() throws {
        #expect(try read("{}").isIdentical(to: .dictionary([:])))
        #expect(try read("()").isIdentical(to: .array([])))
        #expect(try read("<>").isIdentical(to: .data(Data())))
        #expect(try read("\"\"").isIdentical(to: .string("")))
    }

    @Test func arrays() throws {
        #expect(try read("(a, b, )").isIdentical(to: .array(["a", "b"])))
        #expect(try read("( (1), {x = y;} )").isIdentical(to: .array([.array(["1"]), .dictionary(["x": "y"])])))
    }

    @Test func scalarsStayStrings() throws {
        #expect(try read("(YES, 87, -1.5e3, 0061)").isIdentical(to: .array(["YES", "87", "-1.5e3", "0061"])))
        #expect(try read("a/b:c.d-e_f$g").isIdentical(to: .string("a/b:c.d-e_f$g")))
    }

    @Test func data() throws {
        #expect(try read("<0fbd 7777\n  AB>").isIdentical(to: .data(Data([0x0F, 0xBD, 0x77, 0x77, 0xAB]))))
    }

    @Test func escapes() throws {
        let value = try read(#""\\ \" \' \n \t \r \a \b \f \v \d""#)
        #expect(value.string == "\\ \" ' \n \t \r \u{07} \u{08} \u{0C} \u{0B} d")
        #expect(try read(#"'it\'s "x"'"#).string == "it's \"x\"")
    }

    @Test func octalEscapes() throws {
        #expect(try read(#""\102\0\12\101B""#).string == "B\u{0}\nAB")
        #expect(try read(#""\200\341\376""#).string == "\u{A0}\u{C6}\u{FFFD}")  // NeXTSTEP encoding
    }

    @Test func unicodeEscapes() throws {
        #expect(try read(#""\U0042\U41\Ue9\U20ac""#).string == "BA\u{E9}\u{20AC}")
        #expect(try read(#""\UD83D\UDE00""#).string == "\u{1F600}")
        // A lone surrogate is refused where its escape starts, as binary and JSON refuse one.
        for (text, column) in [(#""\UD83Dx""#, 2), (#""\UDE00""#, 2), (#""ab\UD800""#, 4), (#""\UD83D\U0041""#, 2)] {
            #expect(throws: PlistError(.invalidUTF16, at: column - 1, position: TextPosition(line: 1, column: column)))
            {
                try read(text)
            }
        }
    }

    @Test func rawUTF8InQuotedStrings() throws {
        #expect(try read("{ \"κλειδί\" = \"値\"; }").isIdentical(to: .dictionary(["κλειδί": "値"])))
    }

    @Test func comments() throws {
        let text = "// head\n{ /* a = b; */ c = /* x */ d; // tail\n e = f/g; }/* end */\n"
        #expect(try read(text).isIdentical(to: .dictionary(["c": "d", "e": "f/g"])))
    }

    @Test func onlyCommentsIsAnEmptyDictionary() throws {
        #expect(try read("/* nothing */ // here\n").isIdentical(to: .dictionary([:])))
        #expect(try read("  \n").isIdentical(to: .dictionary([:])))
        #expect(try read("/* unterminated").isIdentical(to: .dictionary([:])))
    }

    @Test func stringsFile() throws {
        let text = "/* c */\n\"a\" = \"b\";\nk = v;\n\"same\";\n"
        #expect(try read(text).isIdentical(to: .dictionary(["a": "b", "k": "v", "same": "same"])))
        #expect(try read("\"only\";").isIdentical(to: .dictionary(["only": "only"])))
        #expect(try read("{ short; }").isIdentical(to: .dictionary(["short": "short"])))
    }

    @Test func duplicateKeysKeepFirstPositionAndLastValue() throws {
        let value = try read("{ a = 1; b = 2; a = 3; }")
        #expect(value.dictionary?.keys.elements == ["a", "b"])
        #expect(value["a"]?.string == "3")
    }

    @Test func gnustepTypedValues() throws {
        let value = try read(
            "(<*I-12>, <*I18446744073709551615>, <*R1.5>, <*BY>, <*BN>, <*D2001-01-01 00:00:00 +0000>, <*D2001-01-01 01:00:00 +0100>)"
        )
        let expected: Plist = .array([
            Plist(Int64(-12)), Plist(UInt64.max), .real(1.5), .bool(true), .bool(false),
            .date(Date(timeIntervalSinceReferenceDate: 0)), .date(Date(timeIntervalSinceReferenceDate: 0)),
        ])
        #expect(value.isIdentical(to: expected))
        #expect(try read("<*D2011-11-28 09:21:30 +0000>").date == Date(timeIntervalSinceReferenceDate: 344_164_890))
    }

    @Test func gnustepBase64() throws {
        #expect(try read("<[ qqq7 u8zM ]>").isIdentical(to: .data(Data([0xAA, 0xAA, 0xBB, 0xBB, 0xCC, 0xCC]))))
        #expect(try read("<[YQ==]>").isIdentical(to: .data(Data([0x61]))))
    }

    @Test func encodings() throws {
        let text = "{ a = \"é\"; }"
        let expected: Plist = .dictionary(["a": "é"])
        #expect(try Plist(openStep: [0xEF, 0xBB, 0xBF] + Array(text.utf8)).isIdentical(to: expected))
        var utf16LE: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { utf16LE += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(try Plist(openStep: utf16LE).isIdentical(to: expected))
        var utf16BE: [UInt8] = []
        for unit in text.utf16 { utf16BE += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        #expect(try Plist(openStep: utf16BE).isIdentical(to: expected))
        var utf32BE: [UInt8] = [0, 0, 0xFE, 0xFF]
        for scalar in text.unicodeScalars {
            let v = scalar.value
            utf32BE += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        }
        #expect(try Plist(openStep: utf32BE).isIdentical(to: expected))
        let bytes = Array(text.utf8)
        #expect(try Plist(openStep: bytes.span).isIdentical(to: expected))
    }

    // MARK: Errors

    @Test func errorMessages() {
        let cases: [(String, String)] = [
            ("{ a = b; ", "1:1: the input ends inside a dictionary"),
            ("{ a", "1:1: the input ends inside a dictionary"),
            ("{ a = ", "1:1: the input ends inside a dictionary"),
            ("\n\n  { a = b", "3:3: the input ends inside a dictionary"),
            ("(a, b", "1:1: the input ends inside an array"),
            ("(x,\r\n\"abc", "2:1: the input ends inside a quoted string"),
            ("\"\\", "1:1: the input ends inside a quoted string"),
            ("<0fbd", "1:1: the input ends inside data"),
            ("<0fb>", "1:5: <data> holds \"<0fb>\", which is not a valid data"),
            ("<0g>", "1:3: <data> holds \"<0g\", which is not a valid data"),
            ("(a,\n <zz>)", "2:3: <data> holds \"<z\", which is not a valid data"),
            ("{ a = b }", "1:9: <dictionary> holds \"missing `;` before `}`\", which is not a valid dictionary"),
            ("{ a b; }", "1:5: <dictionary> holds \"missing `=` before `b`\", which is not a valid dictionary"),
            (
                "{ (a) = b; }",
                "1:3: <dictionary> holds \"a key cannot start with `(`\", which is not a valid dictionary"
            ),
            (
                "{ a\0 = b; }",
                "1:4: <dictionary> holds \"missing `=` before byte 0x00\", which is not a valid dictionary"
            ),
            ("{ a = ; }", "1:7: <value> holds \"unexpected `;`\", which is not a valid value"),
            ("(a b)", "1:4: <array> holds \"missing `,` before `b`\", which is not a valid array"),
            ("(a,,)", "1:4: <value> holds \"unexpected `,`\", which is not a valid value"),
            ("+", "1:1: <value> holds \"unexpected `+`\", which is not a valid value"),
            ("{}\n x", "2:2: text outside of any value element"),
            ("(a) = b;", "1:5: text outside of any value element"),
            ("a+b", "1:2: text outside of any value element"),
            ("\"a\" = ", "1:7: <dictionary> holds \"no value after `=`\", which is not a valid dictionary"),
            (
                "\"a\" = \"b\"",
                "1:10: <dictionary> holds \"missing `;` before the end\", which is not a valid dictionary"
            ),
            ("a = b;\nc", "2:2: <dictionary> holds \"missing `=` before the end\", which is not a valid dictionary"),
            ("<*I12x>", "1:4: <integer> holds \"12x\", which is not a valid integer"),
            ("<*I99999999999999999999>", "1:4: <integer> holds \"99999999999999999999\", which is not a valid integer"),
            ("<*R>", "1:4: <real> holds \"\", which is not a valid real"),
            ("<*BX>", "1:4: <bool> holds \"X\", which is not a valid bool"),
            ("<*D2001-01-01>", "1:4: <date> holds \"2001-01-01\", which is not a valid date"),
            (
                "<*D2001-13-01 00:00:00 +0000>",
                "1:4: <date> holds \"2001-13-01 00:00:00 +0000\", which is not a valid date"
            ),
            ("<*Q1>", "1:1: <GNUstep value> holds \"<*Q1>\", which is not a valid GNUstep value"),
            ("<*I12", "1:1: the input ends inside a GNUstep value"),
            ("<[ab!]>", "1:5: <base64 data> holds \"unexpected `!`\", which is not a valid base64 data"),
            ("<[YQ==]", "1:8: <base64 data> holds \"missing `>` before the end\", which is not a valid base64 data"),
            ("<[YQ", "1:1: the input ends inside base64 data"),
        ]
        for (text, message) in cases {
            #expect(failure(text) == message, "\(text.debugDescription)")
        }
    }

    /// No text, white space alone or comments alone: an empty `.strings` file, as in CF.
    @Test func emptyInputIsAnEmptyStringsFile() throws {
        #expect(try Plist(openStep: [UInt8]()) == [:])
        #expect(try Plist(openStep: Array(" \n\t".utf8)) == [:])
        #expect(try Plist(openStep: Array("/* nothing */\n".utf8)) == [:])
    }

    @Test func invalidUTF8() {
        let error = #expect(throws: PlistError.self) {
            try Plist(openStep: Array("{ a = \"".utf8) + [0xFF] + Array("\"; }".utf8))
        }
        #expect(error?.description == "1:8: <UTF-8 text> holds \"byte 0xFF\", which is not a valid UTF-8 text")
        let truncated = #expect(throws: PlistError.self) { try Plist(openStep: [0x61, 0x0A, 0xE2, 0x82]) }
        #expect(
            truncated?.description == "2:1: <UTF-8 text> holds \"truncated sequence\", which is not a valid UTF-8 text")
    }

    @Test func invalidUTF16() {
        let error = #expect(throws: PlistError.self) { try Plist(openStep: [0xFF, 0xFE, 0x00, 0xD8, 0x41, 0x00]) }
        #expect(error?.kind == .invalidUTF16)
    }

    @Test func limits() {
        #expect(
            failure("((()))", options: .init(maxDepth: 2))
                == "1:3: containers are nested deeper than the limit of 2 (raise maxDepth to allow more)")
        #expect(throws: Never.self) { try read("((()))", options: .init(maxDepth: 3)) }
        #expect(
            failure("(a, b, c)", options: .init(maxObjects: 3))
                == "1:8: more than 3 values, counting shared references each time (raise maxObjects to allow more)")
        #expect(
            failure("(abc, \"def\")", options: .init(maxContentBytes: 5))
                == "1:7: more than 5 bytes of string and data content, counting shared references each time (raise maxContentBytes to allow more)"
        )
        let deep = String(repeating: "(", count: 100_000)
        #expect(
            failure(deep)?.hasSuffix(
                "containers are nested deeper than the limit of 512 (raise maxDepth to allow more)") == true)
    }

    @Test func neverCrashesOnPrefixes() {
        let text = Array(#"{ a = (b, "c\U00e9\101", <0f bd>, <*I1>, <[YQ==]>, {d = e;}); /* x */ f; }"#.utf8)
        for length in 0...text.count {
            _ = try? Plist(openStep: Array(text[0..<length]))
        }
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array(#"{}()<>[]*=;,"'\/ aU0IRBD9-+"#.utf8) + [0x0A, 0x00, 0xFF, 0xE2]
        for _ in 0..<2000 {
            let count = Int.random(in: 0..<24, using: &generator)
            let bytes = (0..<count).map { _ in alphabet.randomElement(using: &generator)! }
            _ = try? Plist(openStep: bytes)
        }
    }

    // MARK: Corpus

    static let corpusFiles = Corpus.validOpenStep

    static let invalidFiles: [Corpus.Entry] = Corpus.nonEmpty(
        Corpus.entries.filter {
            ($0.file.hasPrefix("invalid/") && $0.format == "openstep") || $0.file.contains("test-ascii-utf-")
        }, "invalid OpenStep")

    /// The exact message for each invalid OpenStep file, and for the two files the oracle (like
    /// CoreFoundation) rejects for a non-ASCII unquoted string.
    static let invalidMessages: [String: String] = [
        "openstep/ddplist__test-ascii-utf-16le.plist":
            "6:19: <value> holds \"unexpected byte 0xE3\", which is not a valid value",
        "openstep/ddplist__test-ascii-utf-32be.plist":
            "6:19: <value> holds \"unexpected byte 0xE3\", which is not a valid value",
        "invalid/ddplist__github-issue73-1.plist":
            "1:3: <UTF-8 text> holds \"byte 0x98\", which is not a valid UTF-8 text",
        "invalid/ddplist__github-issue74-crash-46eba622.plist": "2:3: <data> holds \"<q\", which is not a valid data",
        "invalid/ddplist__github-issue76.plist":
            "1:13: <UTF-8 text> holds \"truncated sequence\", which is not a valid UTF-8 text",
        "invalid/ddplist__test2-ascii-null-char-in-string.pbxproj":
            "10:10: <dictionary> holds \"missing `=` before byte 0x00\", which is not a valid dictionary",
        "invalid/libplist__fuzz-oplist-64974369.plist": "1:1: the input ends inside a quoted string",
        "invalid/libplist__fuzz-oplist-46836835.plist":
            "1:9: <UTF-8 text> holds \"byte 0x9A\", which is not a valid UTF-8 text",
    ]

    @Test(.needsCorpus) func corpusIsPresent() {
        #expect(Self.corpusFiles.count >= 30, "expected the shared corpus at \(Paths.corpus.path)")
        #expect(Self.invalidFiles.count >= 8)
    }

    @Test(.needsCorpus, arguments: corpusFiles)
    func readsLikeTheOracle(entry: Corpus.Entry) throws {
        let value = try Plist(openStep: try Paths.bytes(entry.url))
        let expected = try Corpus.expected(entry)
        if entry.note.contains("GNUstep-base") {
            // GNUstep's dictionaries have no order, so its dump lists keys sorted: compare content.
            #expect(value == expected, "\(entry.file): \(entry.note)")
        } else {
            #expect(value.isIdentical(to: expected), "\(entry.file): \(entry.note)")
        }
    }

    @Test(.needsCorpus, arguments: invalidFiles)
    func rejectsInvalidFile(entry: Corpus.Entry) throws {
        let error = try #require(throws: PlistError.self) { try Plist(openStep: try Paths.bytes(entry.url)) }
        #expect(error.position != nil, "\(entry.file): \(error)")
        #expect(error.description == Self.invalidMessages[entry.file], "\(entry.file)")
    }
}
