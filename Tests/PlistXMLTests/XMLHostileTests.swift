import Foundation
import PlistCore
import PlistXML
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The XML reader against hostile input: every truncation of a small document, unterminated
/// tokens, invalid text, entity attacks, external references that must never be fetched, and
/// nesting far past the limit. Every error names its line and column.
/// Hostile inputs must fail at once, never hang: each test has a time limit (a hang guard, not
/// a speed measurement).
@Suite(.timeLimit(.minutes(10))) struct XMLHostileTests {
    private func read(_ text: String, _ options: PlistReadOptions = .init()) throws(PlistError) -> Plist {
        try Plist(xml: Array(text.utf8), options: options)
    }

    private func error(_ bytes: [UInt8]) throws -> PlistError {
        try #require(throws: PlistError.self) { try Plist(xml: bytes) }
    }

    private func error(_ text: String) throws -> String {
        try error(Array(text.utf8)).description
    }

    static let small = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>a &amp; b</key>
        \t<array><integer>-12</integer><real>2.5</real><true/><date>2001-01-01T00:00:00Z</date></array>
        \t<key>data</key>
        \t<data>AP8=</data>
        </dict>
        </plist>
        """

    @Test func everyTruncationIsAnErrorWithAPosition() throws {
        let bytes = Array(Self.small.utf8)
        #expect(
            try Plist(xml: bytes) == [
                "a & b": [-12, 2.5, true, .date(Date(timeIntervalSinceReferenceDate: 0))],
                "data": .data(Data([0, 0xFF])),
            ])
        for length in 0..<bytes.count - 1 {
            let error = try error(Array(bytes[0..<length]))
            if length == 0 {
                #expect(error == PlistError(.emptyInput, at: 0))
            } else {
                #expect(error.position != nil, "\(length): \(error)")
                #expect(try #require(error.byteOffset) <= length, "\(length): \(error)")
            }
        }
    }

    @Test func unterminatedTokens() throws {
        let cases: [(String, String)] = [
            ("<plist><string>abc", "1:19: malformed XML: Premature end of data in tag string line 1"),
            ("<plist><string>abc</str", "1:24: malformed XML: expected '>'"),
            ("<plist><true/></plist", "1:22: malformed XML: expected '>'"),
            (
                "<plist version=\"1.0><true/></plist>",
                "1:21: malformed XML: Unescaped '<' not allowed in attributes values"
            ),
            ("<plist><string>a &amp b</string></plist>", "1:22: malformed XML: EntityRef: expecting ';'"),
            (
                "<plist><string>&#xD800;</string></plist>",
                "1:24: malformed XML: xmlParseCharRef: invalid xmlChar value 55296"
            ),
            ("<plist><!-- <true/></plist>", "1:28: malformed XML: Comment not terminated"),
            (
                "<plist><string><![CDATA[abc</string></plist>",
                "1:45: malformed XML: CData section not finished abc</string></plis"
            ),
            ("<plist><?pi </plist>", "1:21: malformed XML: ParsePI: PI pi never end ..."),
            ("<plist><key>a</key></plist>", "1:12: <key> cannot stand inside <plist>"),
            ("<plist><dict><key>a</key></dict></plist>", "1:33: the key \"a\" has no value"),
        ]
        for (text, message) in cases {
            let actual = try error(text)
            #expect(actual == message, "\(text.debugDescription) → \(actual)")
        }
    }

    @Test func invalidText() throws {
        let utf8 = Array("<plist><string>".utf8) + [0xC3, 0x28] + Array("</string></plist>".utf8)
        #expect(try error(utf8).description.hasPrefix("1:16: malformed XML: "))
        // UTF-16 (little-endian, with its byte-order mark) holding an unpaired surrogate.
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in Array("<plist><string>".utf16) + [0xD800] + Array("</string></plist>".utf16) {
            utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        #expect(try error(utf16).kind == .invalidUTF16)
        #expect(try error("<plist><string>\u{1}</string></plist>").hasPrefix("1:16: malformed XML: "))
    }

    @Test func aBillionLaughsIsRefusedAtOnce() throws {
        var entities = "<!ENTITY lol0 \"lol\">"
        for level in 1...9 {
            entities += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
        }
        let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [\(entities)]>\n<plist><string>&lol9;</string></plist>"
        #expect(
            try error(text) == "2:37: DTD declarations (internal subsets, entities) are not allowed in property lists")
        let parameter = "<!DOCTYPE plist [<!ENTITY % p SYSTEM \"file:///etc/passwd\"> %p;]><plist><true/></plist>"
        #expect(
            try error(parameter).hasSuffix(
                "DTD declarations (internal subsets, entities) are not allowed in property lists"))
    }

    /// A DTD on disk that would define `&secret;` is never loaded: the entity stays undefined.
    @Test func neverReadsAnExternalDTD() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("xml-hostile-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let dtd = folder.appendingPathComponent("secret.dtd")
        try Data("<!ENTITY secret \"SECRET\">".utf8).write(to: dtd)
        let text = "<!DOCTYPE plist SYSTEM \"\(dtd.absoluteString)\"><plist><string>&secret;</string></plist>"
        let message = try error(text)
        #expect(message.hasSuffix("malformed XML: Entity 'secret' not defined"))
        let xinclude = """
            <plist xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="\(dtd.absoluteString)"/></plist>
            """
        #expect(try error(xinclude).hasSuffix("unknown element <xi:include>"))
    }

    /// Documents naming a DTD, an entity and an XInclude on a local HTTP port: nothing ever connects.
    @Test func neverOpensANetworkConnection() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 8) == 0
                    && getsockname(listener, pointer, &length) == 0
            }
        }
        try #require(bound)
        _ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK)
        let url = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/plist.dtd"
        #expect(try read("<!DOCTYPE plist SYSTEM \"\(url)\"><plist><true/></plist>") == true)
        #expect(throws: PlistError.self) {
            try read("<!DOCTYPE plist [<!ENTITY e SYSTEM \"\(url)\">]><plist><string>&e;</string></plist>")
        }
        #expect(throws: PlistError.self) {
            try read("<plist xmlns:xi=\"http://www.w3.org/2001/XInclude\"><xi:include href=\"\(url)\"/></plist>")
        }
        #expect(accept(listener, nil, nil) == -1, "the reader connected to \(url)")
    }

    @Test func nestingFarPastTheLimitIsAnErrorNotAStackOverflow() throws {
        let arrays = "<plist>" + String(repeating: "<array>", count: 100_000)
        #expect(
            try error(arrays)
                == "1:3598: containers are nested deeper than the limit of 512 (raise maxDepth to allow more)")
        let dictionaries = "<plist>" + String(repeating: "<dict><key>k</key>", count: 100_000)
        #expect(
            try error(dictionaries)
                == "1:9229: containers are nested deeper than the limit of 512 (raise maxDepth to allow more)")
    }

    @Test func hugeNumbersAreOutOfRange() throws {
        let digits = String(repeating: "9", count: 100_000)
        let message = try error("<plist><integer>\(digits)</integer></plist>")
        #expect(message == "1:100027: integer out of range (property lists hold -2^63 through 2^64-1)")
    }
}
