import Foundation
import PlistCore
import PropertyBased
import TestSupport
import Testing

private let gnustep = PlistWriteOptions(sortsKeys: false, openStepValues: .gnustep)

private func text(_ value: Plist, _ options: PlistWriteOptions = gnustep) throws -> String {
    String(decoding: try value.openStepBytes(options: options), as: UTF8.self)
}

@Suite struct OpenStepWriterTests {
    @Test func layout() throws {
        let value: Plist = [
            "name": "App", "list": ["a", "b c", []], "empty": [:], "data": .data(Data([0x0F, 0xBD, 0x77, 0x77, 1, 2])),
            "nested": ["key": ""],
        ]
        #expect(
            try text(value) == """
                {
                \tname = App;
                \tlist = (
                \t\ta,
                \t\t"b c",
                \t\t(
                \t\t),
                \t);
                \tempty = {
                \t};
                \tdata = <0fbd7777 0102>;
                \tnested = {
                \t\tkey = "";
                \t};
                }

                """)
    }

    @Test(arguments: [
        ("plain_$/:.-09AZaz", "plain_$/:.-09AZaz"), ("", "\"\""), ("two words", "\"two words\""),
        ("a+b", "\"a+b\""), ("quote\"back\\slash", "\"quote\\\"back\\\\slash\""),
        ("\n\t\r\u{07}\u{08}\u{0C}\u{0B}", "\"\\n\\t\\r\\a\\b\\f\\v\""),
        ("nul\u{0}del\u{7F}", "\"nul\\U0000del\\U007f\""),
        ("café 東京 😀", "\"café 東京 😀\""), ("{;}", "\"{;}\""), ("//comment", "\"//comment\""),
        ("/*c*/", "\"/*c*/\""), ("'single'", "\"'single'\""), ("a//b", "\"a//b\""), ("a/b/", "a/b/"),
    ])
    func strings(string: String, written: String) throws {
        #expect(try text(.string(string)) == written + "\n")
        #expect(try Plist(openStep: try Plist.string(string).openStepBytes()) == .string(string))
    }

    @Test func gnustepValuesReadBackExactly() throws {
        let value: Plist = [
            "int": -42, "big": .integer(PlistInteger(UInt64.max)), "small": .integer(PlistInteger(Int64.min)),
            "real": 0.1, "negativeZero": .real(-0.0), "huge": 1e300, "inf": .real(.infinity), "nan": .real(.nan),
            "yes": true, "no": false, "date": .date(Date(timeIntervalSinceReferenceDate: 0)),
            "fraction": .date(Date(timeIntervalSinceReferenceDate: -1.25)),
            "tiny": .date(Date(timeIntervalSinceReferenceDate: 1e-7)), "uid": .uid(7), "uidMax": .uid(.max),
        ]
        let written = try text(value)
        #expect(written.contains("int = <*I-42>;"))
        #expect(written.contains("real = <*R0.1>;"))
        #expect(written.contains("yes = <*BY>;"))
        #expect(written.contains("date = <*D2001-01-01 00:00:00 +0000>;"))
        #expect(written.contains("fraction = <*D2000-12-31 23:59:58.75 +0000>;"))
        #expect(written.contains("tiny = <*D2001-01-01 00:00:00.0000001 +0000>;"))
        #expect(written.contains("uid = {CF$UID = <*I7>;};"))
        let back = try Plist(openStep: Array(written.utf8))
        #expect(back.isIdentical(to: value))
    }

    @Test(
        arguments: [
            (
                Plist.dictionary(["a": ["b": [1]]]),
                "the value at key path \"a.b.0\" is an integer, which OpenStep cannot hold"
            ),
            (Plist.dictionary(["x.y": true]), "the value at key path \"x\\.y\" is a bool, which OpenStep cannot hold"),
            (Plist.real(1), "the top-level value is a float, which OpenStep cannot hold"),
            (
                Plist.dictionary(["d": .date(Date(timeIntervalSinceReferenceDate: 0))]),
                "the value at key path \"d\" is a date, which OpenStep cannot hold"
            ),
            (Plist.dictionary(["u": .uid(1)]), "the value at key path \"u\" is a uid, which OpenStep cannot hold"),
        ] as [(Plist, String)])
    func strictModeNamesTheKeyPath(value: Plist, message: String) {
        #expect(throws: PlistError.self) { try value.openStepBytes() }
        do {
            _ = try value.openStepBytes()
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func stringifiedValues() throws {
        let value: Plist = [
            "n": 5, "r": 0.5, "b": true, "d": .date(Date(timeIntervalSinceReferenceDate: 3600)), "u": .uid(3),
        ]
        let back = try Plist(
            openStep: try value.openStepBytes(options: .init(sortsKeys: false, openStepValues: .strings)))
        #expect(back == ["n": "5", "r": "0.5", "b": "YES", "d": "2001-01-01 01:00:00 +0000", "u": "3"])
    }

    @Test func datesGNUstepCannotHold() {
        let value: Plist = ["far": .date(Date(timeIntervalSinceReferenceDate: 1e15))]
        #expect(
            throws: PlistError(.unrepresentable(keyPath: "far", type: "date", format: "GNUstep's date text"), at: 0)
        ) {
            try value.openStepBytes(options: gnustep)
        }
    }

    @Test func sortsKeysWhenAsked() throws {
        let value: Plist = ["b": "1", "a": "2", "B": "3"]
        #expect(try text(value, .init(sortsKeys: true)) == "{\n\tB = 3;\n\ta = 2;\n\tb = 1;\n}\n")
        #expect(try text(value, .init(sortsKeys: false)) == "{\n\tb = 1;\n\ta = 2;\n\tB = 3;\n}\n")
    }

    @Test func depthLimit() throws {
        var value: Plist = "leaf"
        for _ in 0..<10 { value = [value] }
        #expect(throws: PlistError(.tooDeep(limit: 5), at: 0)) { try value.openStepBytes(options: .init(maxDepth: 5)) }
        #expect(try Plist(openStep: try value.openStepBytes(options: .init(maxDepth: 10))) == value)
    }

    // MARK: .strings

    @Test func stringsFile() throws {
        let value: Plist = ["Hello": "Bonjour", "Quote \"x\"": "Line\nbreak", "": "empty key"]
        let bytes = try value.stringsBytes(options: .init(sortsKeys: false))
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == "\"Hello\" = \"Bonjour\";\n\"Quote \\\"x\\\"\" = \"Line\\nbreak\";\n\"\" = \"empty key\";\n")
        let (back, isStringsFile) = try Plist.readOpenStep(bytes.span)
        #expect(isStringsFile)
        #expect(back.isIdentical(to: value))
    }

    @Test func stringsFileRejectsWhatItCannotHold() throws {
        #expect(throws: PlistError(.unrepresentable(keyPath: "a", type: "array", format: "a .strings file"), at: 0)) {
            try Plist.dictionary(["a": []]).stringsBytes()
        }
        #expect(throws: PlistError(.unrepresentable(keyPath: "", type: "array", format: "a .strings file"), at: 0)) {
            try Plist.array([]).stringsBytes()
        }
        #expect(throws: PlistError(.unrepresentable(keyPath: "n", type: "integer", format: "a .strings file"), at: 0)) {
            try Plist.dictionary(["n": 1]).stringsBytes()
        }
        #expect(
            try Plist(openStep: try Plist.dictionary(["n": 1]).stringsBytes(options: .init(openStepValues: .strings)))
                == ["n": "1"])
    }

    // MARK: Round trips

    static let corpus = Corpus.validOpenStep + Corpus.validBinary + Corpus.validXML

    /// Every corpus file reads back to the oracle's value, keys in order, through GNUstep typing.
    @Test(.needsCorpus, arguments: corpus)
    func corpusRoundTrip(entry: Corpus.Entry) throws {
        let expected = try Corpus.expected(entry)
        if entry.file.contains("datetime") {
            // Python's test files with a NaN date and a date past the year 9999, which GNUstep cannot write.
            #expect(throws: PlistError.self) { try expected.openStepBytes(options: gnustep) }
            return
        }
        let back = try Plist(openStep: try expected.openStepBytes(options: gnustep))
        #expect(back.isIdentical(to: expected), "\(entry.file)")
    }

    /// Files holding only strings, data, arrays and dictionaries are plain OpenStep, and the same
    /// text whichever mode writes them.
    @Test(.needsCorpus, arguments: Corpus.validOpenStep)
    func plainFilesNeedNoTyping(entry: Corpus.Entry) throws {
        let expected = try Corpus.expected(entry)
        guard !entry.note.contains("GNUstep") else { return }
        let strict = try expected.openStepBytes(options: .init(sortsKeys: false))
        #expect(strict == (try expected.openStepBytes(options: gnustep)), "\(entry.file)")
    }

    /// Random values of every kind, NaN payloads aside (GNUstep writes every NaN as `nan`).
    static let values = Generator { rng in
        PlistGenerator(profile: .init(exoticNaNs: false, maxUID: .max, calendarDatesOnly: false, allowsNUL: true))
            .value(using: &rng)
    }

    @Test func generatedValuesRoundTrip() async {
        await propertyCheck(count: 300, input: Self.values) { value in
            do throws(PlistError) {
                let back = try Plist(openStep: try value.openStepBytes(options: gnustep))
                let expected = value.withoutNegativeZeroDates
                #expect(back.isIdentical(to: expected), "\(back.firstDifference(from: expected) ?? "")")
            } catch {
                // Only dates outside the years 1...9999 may be refused.
                guard case .unrepresentable(_, "date", _) = error.kind else {
                    Issue.record("\(error) for \(value)")
                    return
                }
            }
        }
    }
}

extension Plist {
    /// The value with dates of -0.0 seconds made 0.0: GNUstep's date text has no negative zero.
    fileprivate var withoutNegativeZeroDates: Plist {
        switch self {
        case .date(let date) where date.timeIntervalSinceReferenceDate == 0:
            .date(Date(timeIntervalSinceReferenceDate: 0))
        case .array(let elements): .array(elements.map(\.withoutNegativeZeroDates))
        case .dictionary(let entries): .dictionary(entries.mapValues(\.withoutNegativeZeroDates))
        default: self
        }
    }
}
