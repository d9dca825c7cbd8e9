import Foundation
import PlistCore
import PlistXML
import Testing

/// The XML reader on hand-written documents: what CoreFoundation accepts, what it refuses (with
/// line and column), hostile input, and the limits.
@Suite struct XMLReaderTests {
    private let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">

        """

    private func read(_ text: String, _ options: PlistReadOptions = .init()) throws(PlistError) -> Plist {
        try Plist(xml: Array(text.utf8), options: options)
    }

    private func error(_ text: String, _ options: PlistReadOptions = .init()) throws -> String {
        try #require(throws: PlistError.self) { try read(text, options) }.description
    }

    @Test func readsEveryType() throws {
        let text =
            header + """
                <plist version="1.0">
                <dict>
                \t<key>s</key><string>a &amp; b &lt; c &#x41;&#66; <![CDATA[<raw> & stuff]]></string>
                \t<key>i</key><array><integer>-12</integer><integer>0x1F</integer><integer> +7</integer>\
                <integer>18446744073709551615</integer><integer>-9223372036854775808</integer></array>
                \t<key>r</key><array><real>1.5</real><real>-2e3</real><real>.5</real><real>NaN</real>\
                <real>+infinity</real><real>-Infinity</real><real>inf</real></array>
                \t<key>d</key><date>2001-01-01T00:00:01Z</date>
                \t<key>b</key><data>
                \t AAEC
                \t/w==
                \t</data>
                \t<key>t</key><true/><key>f</key><false></false>
                \t<key>e</key><array/><key>ed</key><dict></dict><key>es</key><string/>
                \t<!-- a comment -->
                \t<key>u</key><dict><key>CF$UID</key><integer>5</integer></dict>
                \t<key>notUID</key><dict><key>CF$UID</key><string>5</string></dict>
                </dict>
                </plist>
                """
        let value = try read(text)
        #expect(value["s"] == "a & b < c AB <raw> & stuff")
        #expect(value["i"] == [-12, 31, 7, .integer(PlistInteger(UInt64.max)), .integer(PlistInteger(Int64.min))])
        #expect(value["r"] == [1.5, -2000.0, 0.5, .real(.nan), .real(.infinity), .real(-.infinity), .real(.infinity)])
        #expect(value["d"] == .date(Date(timeIntervalSinceReferenceDate: 1)))
        #expect(value["b"] == .data(Data([0, 1, 2, 255])))
        #expect(value["t"] == true && value["f"] == false)
        #expect(value["e"] == [] && value["ed"] == [:] && value["es"] == "")
        #expect(value["u"] == .uid(5))
        #expect(value["notUID"] == ["CF$UID": "5"])
        #expect(
            value.dictionary?.keys.elementsEqual(["s", "i", "r", "d", "b", "t", "f", "e", "ed", "es", "u", "notUID"])
                == true)
    }

    @Test func acceptsWhatCoreFoundationAccepts() throws {
        #expect(try read("<string>no plist element</string>") == "no plist element")
        #expect(try read("\n  \n  <?xml version=\"1.0\"?><plist><true/></plist>") == true)
        #expect(try read("\u{FEFF}<?xml version=\"1.0\"?><plist><integer>1</integer></plist>") == 1)
        #expect(try read("<plist><data>AA!E*C=garbage</data></plist>") == .data(Data([0, 1, 2])))
        #expect(
            try read(
                "<plist version=\"1.0\" other=\"x\"><dict><key>k</key><integer>1</integer><key>k</key><integer>2</integer></dict></plist>"
            )
                == ["k": 2])
    }

    @Test(arguments: [(true, 2), (false, 2), (true, 4), (false, 4)])
    func readsUTF16AndUTF32(bigEndian: Bool, width: Int) throws {
        let text =
            "<?xml version=\"1.0\" encoding=\"UTF-\(width * 8)\"?><plist><string>h\u{E9} \u{1F600}</string></plist>"
        var bytes: [UInt8] = []
        let units: [UInt32] =
            width == 2 ? [0xFEFF] + text.utf16.map(UInt32.init) : [0xFEFF] + text.unicodeScalars.map(\.value)
        for unit in units {
            let little = (0..<width).map { UInt8(truncatingIfNeeded: unit >> (8 * UInt32($0))) }
            bytes += bigEndian ? little.reversed() : little
        }
        #expect(try Plist(xml: bytes) == "h\u{E9} \u{1F600}")
        #expect(try Plist(xml: Array(bytes.dropFirst(width))) == "h\u{E9} \u{1F600}", "without a byte-order mark")
    }

    @Test(arguments: [
        ("<plist><foo/></plist>", "1:12: unknown element <foo>"),
        ("<plist><dict><key>a</key></dict></plist>", "1:33: the key \"a\" has no value"),
        ("<plist><dict><key>a</key><key>b</key></dict></plist>", "1:30: the key \"a\" has no value"),
        ("<plist><dict><string>x</string></dict></plist>", "1:21: <string> in a dictionary where a <key> belongs"),
        ("<plist><true/><false/></plist>", "1:21: more than one value at the top level"),
        ("<plist></plist>", "1:16: the document holds no value"),
        ("<plist><integer>12x</integer></plist>", "1:30: <integer> holds \"12x\", which is not a valid integer"),
        (
            "<plist><integer>18446744073709551616</integer></plist>",
            "1:47: integer out of range (property lists hold -2^63 through 2^64-1)"
        ),
        (
            "<plist><integer>-9223372036854775809</integer></plist>",
            "1:47: integer out of range (property lists hold -2^63 through 2^64-1)"
        ),
        ("<plist><real>1.5.5</real></plist>", "1:26: <real> holds \"1.5.5\", which is not a valid real"),
        (
            "<plist><date>2001-02-3T00:00:00Z</date></plist>",
            "1:40: <date> holds \"2001-02-3T00:00:00Z\", which is not a valid date"
        ),
        (
            "<plist><date>2001-01-01 00:00:00</date></plist>",
            "1:40: <date> holds \"2001-01-01 00:00:00\", which is not a valid date"
        ),
        ("<plist><true>yes</true></plist>", "1:24: <true> holds \"yes\", which is not a valid true"),
        ("<plist>text<true/></plist>", "1:12: text outside of any value element"),
        ("<plist><string><true/></string></plist>", "1:21: <true> cannot stand inside <string>"),
        ("<plist><array><plist/></array></plist>", "1:21: <plist> cannot stand inside <array>"),
        (
            "<plist><array><string>x</array></plist>",
            "1:32: malformed XML: Opening and ending tag mismatch: string line 1 and array"
        ),
        ("<key>a</key>", "1:5: <key> cannot stand inside <plist>"),
        ("", "the input is empty"),
        ("\n\n  <?xml version=\"1.0\"?>\n<plist><bad/></plist>", "4:12: unknown element <bad>"),
    ])
    func rejectsWithLineAndColumn(text: String, message: String) throws {
        #expect(try error(text) == message)
    }

    @Test func refusesDeclarationsAndExternalEntities() throws {
        let xxe = """
            <?xml version="1.0"?>
            <!DOCTYPE plist [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
            <plist><string>&xxe;</string></plist>
            """
        #expect(
            try error(xxe) == "2:58: DTD declarations (internal subsets, entities) are not allowed in property lists")
        let laughs = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
            <plist><string>&lol2;</string></plist>
            """
        #expect(
            try error(laughs) == "2:35: DTD declarations (internal subsets, entities) are not allowed in property lists"
        )
        #expect(
            try error("<!DOCTYPE plist [<!ELEMENT plist ANY>]><plist><true/></plist>")
                == "1:38: DTD declarations (internal subsets, entities) are not allowed in property lists")
        // An undeclared entity is an error; an external DTD is never loaded.
        #expect(
            try error("<plist><string>&passwd;</string></plist>") == "1:24: malformed XML: Entity 'passwd' not defined")
        #expect(
            try read("<!DOCTYPE plist SYSTEM \"file:///etc/passwd\"><plist><string>safe</string></plist>") == "safe")
        #expect(try read("<!DOCTYPE plist SYSTEM \"http://127.0.0.1:9/never.dtd\"><plist><true/></plist>") == true)
    }

    @Test func theDepthLimitIsOursNotLibxml2s() throws {
        func nested(_ depth: Int) -> String {
            "<plist>" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth)
                + "</plist>"
        }
        var expected: Plist = []
        for _ in 1..<512 { expected = [expected] }
        #expect(try read(nested(512)) == expected)
        #expect(
            try error(nested(513))
                == "1:3598: containers are nested deeper than the limit of 512 (raise maxDepth to allow more)")
        #expect(
            try error(nested(20), PlistReadOptions(maxDepth: 10)).hasSuffix(
                "nested deeper than the limit of 10 (raise maxDepth to allow more)"))
    }

    @Test func readsLargeStringsAndData() throws {
        let large = String(repeating: "0123456789abcdef", count: 1 << 20)  // 16 MiB, over libxml2's 10 MB text limit
        #expect(try read("<plist><string>\(large)</string></plist>").string?.utf8.count == 16 << 20)
        let base64 = String(repeating: "AAAA", count: 5 << 20)  // 20 MiB of base64, 15 MiB of data
        #expect(try read("<plist><data>\(base64)</data></plist>").data?.count == 15 << 20)
    }

    @Test func enforcesTheObjectAndContentLimits() throws {
        let array = "<plist><array>" + String(repeating: "<string>abcd</string>", count: 10) + "</array></plist>"
        #expect(try read(array, PlistReadOptions(maxObjects: 11)).count == 10)
        #expect(
            try error(array, PlistReadOptions(maxObjects: 10)).hasSuffix(
                "more than 10 values, counting shared references each time (raise maxObjects to allow more)"))
        #expect(
            try error(array, PlistReadOptions(maxContentBytes: 39)).hasSuffix(
                "more than 39 bytes of string and data content, counting shared references each time (raise maxContentBytes to allow more)"
            ))
    }
}
