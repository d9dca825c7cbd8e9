import Foundation
import PlistCore
import Testing

/// The XML writer: exact bytes for each kind of value and each edge case. Every expected text
/// here is what Foundation's `PropertyListSerialization` wrote for the same value on Linux.
@Suite struct XMLWriterTests {
    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """

    /// The lines between `<plist version="1.0">` and `</plist>`, after checking those.
    private func body(_ value: Plist, options: PlistWriteOptions = .init()) throws -> String {
        let text = String(decoding: try value.xmlBytes(options: options), as: UTF8.self)
        #expect(text.hasPrefix(Self.header))
        #expect(text.hasSuffix("\n</plist>\n"))
        return String(text.dropFirst(Self.header.count).dropLast("\n</plist>\n".count))
    }

    @Test func writesTheWholeDocument() throws {
        #expect(try ("hi" as Plist).xmlBytes() == Array((Self.header + "<string>hi</string>\n</plist>\n").utf8))
    }

    @Test func indentsNestedValuesWithTabsAndWritesEmptyContainersShort() throws {
        let value: Plist = ["a": [1, 2, [], [:]], "b": ["x": true, "y": false]]
        #expect(
            try body(value) == """
                <dict>
                \t<key>a</key>
                \t<array>
                \t\t<integer>1</integer>
                \t\t<integer>2</integer>
                \t\t<array/>
                \t\t<dict/>
                \t</array>
                \t<key>b</key>
                \t<dict>
                \t\t<key>x</key>
                \t\t<true/>
                \t\t<key>y</key>
                \t\t<false/>
                \t</dict>
                </dict>
                """)
        #expect(try body([]) == "<array/>")
        #expect(try body([:]) == "<dict/>")
        #expect(try body(true) == "<true/>")
        #expect(try body(false) == "<false/>")
    }

    /// Keys in CFStringCompare's literal order: UTF-16 code units, a prefix first.
    @Test func sortsKeysByUTF16CodeUnits() throws {
        let keys = [
            "a", "A", "_", "0", "9", "b", "B", "ab", "aB", "Ab", "abc", "a0", "a-b", "", "\u{0}", " ", "~", "10", "1",
            "\u{E4}", "\u{C4}", "\u{DF}", "ss", "\u{1F600}", "\u{E000}", "\u{FFFD}", "\u{FF71}", "\u{65E5}",
        ]
        var entries = PlistDictionary()
        for key in keys { entries[key] = 0 }
        let written = try body(.dictionary(entries)).split(separator: "\n").filter { $0.hasPrefix("\t<key>") }
            .map { String($0.dropFirst(6).dropLast(6)) }
        #expect(
            written == [
                "", "&#0;", " ", "0", "1", "10", "9", "A", "Ab", "B", "_", "a", "a-b", "a0", "aB", "ab", "abc", "b",
                "ss", "~", "\u{C4}", "\u{DF}", "\u{E4}", "\u{65E5}", "\u{1F600}", "\u{E000}", "\u{FF71}", "\u{FFFD}",
            ])
    }

    @Test func sortsKeysLiterallyWithoutNormalizing() throws {
        #expect(
            try body(["\u{C9}a": 1, "z": 2, "e\u{301}": 3, "f": 4]) == """
                <dict>
                \t<key>e\u{301}</key>
                \t<integer>3</integer>
                \t<key>f</key>
                \t<integer>4</integer>
                \t<key>z</key>
                \t<integer>2</integer>
                \t<key>\u{C9}a</key>
                \t<integer>1</integer>
                </dict>
                """)
    }

    @Test func keepsKeyOrderWhenAsked() throws {
        let value: Plist = ["b": 1, "a": ["z": 1, "y": 2]]
        #expect(
            try body(value, options: PlistWriteOptions(sortsKeys: false)) == """
                <dict>
                \t<key>b</key>
                \t<integer>1</integer>
                \t<key>a</key>
                \t<dict>
                \t\t<key>z</key>
                \t\t<integer>1</integer>
                \t\t<key>y</key>
                \t\t<integer>2</integer>
                \t</dict>
                </dict>
                """)
    }

    @Test(
        arguments: [
            (Plist(0), "0"), (-5, "-5"), (9, "9"), (10, "10"), (-10, "-10"), (99, "99"), (100, "100"),
            (1_234_567_890, "1234567890"), (.integer(PlistInteger(Int64.min)), "-9223372036854775808"),
            (.integer(PlistInteger(Int64.max)), "9223372036854775807"),
            (.integer(PlistInteger(UInt64(Int64.max) + 1)), "9223372036854775808"),
            (.integer(PlistInteger(UInt64.max)), "18446744073709551615"),
        ] as [(Plist, String)])
    func writesIntegersInDecimal(value: Plist, text: String) throws {
        #expect(try body(value) == "<integer>\(text)</integer>")
    }

    /// `%.17g`, except zeros, NaN and infinities.
    @Test(
        arguments: [
            (0.1, "0.10000000000000001"), (1.0, "1"), (1e23, "9.9999999999999992e+22"),
            (.leastNonzeroMagnitude, "4.9406564584124654e-324"), (-0.0, "0.0"), (0.0, "0.0"),
            (1e16, "10000000000000000"), (1e17, "1e+17"), (123_456_789_012_345_680, "1.2345678901234568e+17"),
            (.nan, "nan"), (-.nan, "nan"), (.infinity, "+infinity"), (-.infinity, "-infinity"),
            (1e15, "1000000000000000"), (100, "100"), (1.5, "1.5"), (-2.25, "-2.25"), (1e-5, "1.0000000000000001e-05"),
            (1e-4, "0.0001"), (0.001, "0.001"), (.greatestFiniteMagnitude, "1.7976931348623157e+308"),
            (.leastNormalMagnitude, "2.2250738585072014e-308"), (0.3, "0.29999999999999999"),
            (2.0 / 3, "0.66666666666666663"), (-1.5e-7, "-1.4999999999999999e-07"), (1e-300, "1e-300"),
            (1e300, "1.0000000000000001e+300"), (123.456, "123.456"), (Double(Float(0.1)), "0.10000000149011612"),
            // Exact ties at the 18th digit round to even, as glibc's printf does.
            (1_234_567_890_123_456.25, "1234567890123456.2"), (1_234_567_890_123_456.75, "1234567890123456.8"),
            (9_007_199_254_740_992, "9007199254740992"),
            // Just below a power of ten: the 17 digits round up to 1 followed by zeros.
            (1e-79, "1e-79"), (1e-305, "1e-305"),
        ] as [(Double, String)])
    func writesRealsAsPrintfG17(value: Double, text: String) throws {
        #expect(try body(.real(value)) == "<real>\(text)</real>")
    }

    /// CoreFoundation's Gregorian calendar arithmetic: fractions round down (a hair before a
    /// minute can make second 60, which the readers read as the next minute), as CF writes them.
    @Test(
        arguments: [
            (0, "2001-01-01T00:00:00Z"), (0.5, "2001-01-01T00:00:00Z"), (0.999_999_999, "2001-01-01T00:00:00Z"),
            (-0.5, "2000-12-31T23:59:59Z"), (-1e-7, "2000-12-31T23:59:59Z"), (-1e-300, "2000-12-31T23:59:60Z"),
            (-1e-320, "2000-12-31T23:59:60Z"), (-5e-324, "2000-12-31T23:59:60Z"), (-0.0, "2001-01-01T00:00:00Z"),
            (59.999_999_999_9, "2001-01-01T00:00:59Z"), (-978_307_200, "1970-01-01T00:00:00Z"),
            (-978_307_200.5, "1969-12-31T23:59:59Z"), (123_456_789.123456, "2004-11-29T21:33:09Z"),
            (-3_187_296_000, "1900-01-01T00:00:00Z"), (5_097_599, "2001-02-28T23:59:59Z"),
            (5_097_600, "2001-03-01T00:00:00Z"), (252_423_993_599, "9999-12-31T23:59:59Z"),
            (-63_113_904_000, "0001-01-01T00:00:00Z"), (-63_113_903_999.5, "0001-01-01T00:00:00Z"),
            (252_423_993_599.5, "9999-12-31T23:59:59Z"), (-1e10, "1684-02-11T06:13:20Z"),
        ] as [(Double, String)])
    func writesDatesAsCoreFoundationDoes(seconds: Double, text: String) throws {
        #expect(try body(.date(Date(timeIntervalSinceReferenceDate: seconds))) == "<date>\(text)</date>")
    }

    /// Dates outside the years 1 to 9999, which CF writes as text no reader reads back
    /// (`0000-12-31T23:59:59Z`, `10000-01-01T00:00:00Z`, `2030437302-06-07T24:60:-2147483648Z` for
    /// NaN), are refused with their key path.
    @Test(
        arguments: [
            (-63_113_904_000.5, "a date before the year 1"), (-63_177_148_800, "a date before the year 1"),
            (252_423_993_600, "a date after the year 9999"), (1e15, "a date after the year 9999"),
            (-1e18, "a date before the year 1"), (.greatestFiniteMagnitude, "a date after the year 9999"),
            (.nan, "a date that is not a number (NaN)"), (.infinity, "a date infinitely far in the future"),
            (-.infinity, "a date infinitely far in the past"),
        ] as [(Double, String)])
    func refusesDatesOutsideTheYears1To9999(seconds: Double, what: String) throws {
        let date = Plist.date(Date(timeIntervalSinceReferenceDate: seconds))
        #expect(
            throws: PlistError(.unrepresentable(keyPath: "", type: String(what.dropFirst(2)), format: "XML"), at: 0)
        ) {
            try date.xmlBytes()
        }
        let nested: Plist = ["a": [1, ["b": date]]]
        #expect {
            try nested.xmlBytes()
        } throws: { error in
            (error as? PlistError)?.description == "the value at key path \"a.1.b\" is \(what), which XML cannot hold"
        }
    }

    @Test func writesDataInBase64LinesThatShortenWithIndentation() throws {
        let line57 = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4"
        #expect(try body(.data(Data())) == "<data>\n</data>")
        #expect(try body(.data(Data([1, 2, 3]))) == "<data>\nAQID\n</data>")
        #expect(try body(.data(Data(0..<57))) == "<data>\n\(line57)\n</data>")
        #expect(try body(.data(Data(0..<58))) == "<data>\n\(line57)\nOQ==\n</data>")
        #expect(
            try body([.data(Data(0..<52))]) == """
                <array>
                \t<data>
                \tAAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEy
                \tMw==
                \t</data>
                </array>
                """)
        #expect(
            try body([[.data(Data([255, 254]))]])
                == "<array>\n\t<array>\n\t\t<data>\n\t\t//4=\n\t\t</data>\n\t</array>\n</array>")
        #expect(try body([.data(Data())]) == "<array>\n\t<data>\n\t</data>\n</array>")
    }

    /// Beyond 8 levels the base64 lines stay at 8 tabs and 12 characters; the tags do not.
    @Test func capsBase64IndentationAtEightTabs() throws {
        var value = Plist.data(Data(0..<60))
        for _ in 0..<11 { value = [value] }
        let lines = try body(value).split(separator: "\n")
        let eight = String(repeating: "\t", count: 8)
        #expect(lines[11] == String(repeating: "\t", count: 11) + "<data>")
        #expect(
            Array(lines[12...18])
                == [
                    "AAECAwQFBgcI", "CQoLDA0ODxAR", "EhMUFRYXGBka", "GxwdHh8gISIj", "JCUmJygpKiss", "LS4vMDEyMzQ1",
                    "Njc4OTo7",
                ].map { Substring(eight + $0) })
        #expect(lines[19] == String(repeating: "\t", count: 11) + "</data>")
    }

    /// `&`, `<` and `>` as CF escapes them; "\r" and the characters XML 1.0 forbids (which CF
    /// writes raw, making XML no parser reads) as character references, which CF reads.
    @Test func escapesMarkupAndTheCharactersXMLForbids() throws {
        #expect(
            try body("&<>\"' \r\n\t\u{1}\u{7F}\u{E9}\u{1F600}")
                == "<string>&amp;&lt;&gt;\"' &#13;\n\t&#1;\u{7F}\u{E9}\u{1F600}</string>")
        #expect(try body("a\u{0}b") == "<string>a&#0;b</string>")
        #expect(try body("") == "<string></string>")
        #expect(try body(["k&<>\"'": "v"]) == "<dict>\n\t<key>k&amp;&lt;&gt;\"'</key>\n\t<string>v</string>\n</dict>")
        #expect(
            try body("\u{FEFF}x\u{FFFF}\u{FFFE}\u{FFFD}\u{EFFF}\u{10FFFF}")
                == "<string>\u{FEFF}x&#65535;&#65534;\u{FFFD}\u{EFFF}\u{10FFFF}</string>")
        let controls = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init)))
        #expect(
            try body([controls: "v"])
                == "<dict>\n\t<key>&#0;&#1;&#2;&#3;&#4;&#5;&#6;&#7;&#8;\t\n&#11;&#12;&#13;&#14;&#15;&#16;&#17;&#18;"
                + "&#19;&#20;&#21;&#22;&#23;&#24;&#25;&#26;&#27;&#28;&#29;&#30;&#31;</key>\n\t<string>v</string>\n</dict>"
        )
    }

    /// Escapes are found eight bytes at a time: one at every place of a word, or several in
    /// one, or none beside bytes one bit away from them (`%`, `'`, `;`, `=`, `?`) or equal to
    /// them but for the high bit (the last bytes of "¦", "¼" and "¾"), are written as above.
    @Test func escapesWhereverTheyAreInLongerText() throws {
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\r", with: "&#13;")
                .replacingOccurrences(of: "\u{FFFE}", with: "&#65534;")
                .replacingOccurrences(of: "\u{FFFF}", with: "&#65535;")
        }
        // U+FE0F and U+FFC0 start with 0xEF (as U+FFFE does), U+FFC0 with 0xEF 0xBF.
        let filler = Array("%';=?abc¦¼¾\u{FE0F}xyz\u{FFC0}0123456789")
        for special in ["&", "<", ">", "<&>", "\r", "\u{FFFE}", "\u{FFFF}"] {
            for place in 0...filler.count {
                var text = String(filler)
                text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: place))
                #expect(try body(.string(text)) == "<string>\(escaped(text))</string>")
                #expect(try body([text: "v"]) == "<dict>\n\t<key>\(escaped(text))</key>\n\t<string>v</string>\n</dict>")
            }
        }
        #expect(try body(.string(String(filler))) == "<string>\(String(filler))</string>")
    }

    @Test func writesUIDsAsCFUIDDictionaries() throws {
        #expect(try body(.uid(5)) == "<dict>\n\t<key>CF$UID</key>\n\t<integer>5</integer>\n</dict>")
        #expect(
            try body(["root": .uid(UInt64.max)]) == """
                <dict>
                \t<key>root</key>
                \t<dict>
                \t\t<key>CF$UID</key>
                \t\t<integer>18446744073709551615</integer>
                \t</dict>
                </dict>
                """)
    }

    @Test func rejectsContainersDeeperThanTheLimit() throws {
        let three: Plist = [["a": []]]
        #expect(throws: PlistError(.tooDeep(limit: 2), at: 0)) { try three.xmlBytes(options: .init(maxDepth: 2)) }
        #expect(throws: PlistError(.tooDeep(limit: 0), at: 0)) {
            try ([] as Plist).xmlBytes(options: .init(maxDepth: 0))
        }
        _ = try three.xmlBytes(options: .init(maxDepth: 3))
        _ = try Plist.uid(1).xmlBytes(options: .init(maxDepth: 0))
        #expect(try body(1, options: .init(maxDepth: 0)) == "<integer>1</integer>")
    }

    /// A shared subtree is written out at each place it appears.
    @Test func writesSharedSubtreesEachTime() throws {
        let shared: Plist = ["x", 1]
        #expect(
            try body([shared, shared])
                == "<array>\n\t<array>\n\t\t<string>x</string>\n\t\t<integer>1</integer>\n\t</array>\n"
                + "\t<array>\n\t\t<string>x</string>\n\t\t<integer>1</integer>\n\t</array>\n</array>")
    }
}
