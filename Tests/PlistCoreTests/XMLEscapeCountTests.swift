import TestSupport
import Testing

@testable import PlistCore

/// The XML writers' escape count, sixteen bytes at a time, against its byte-by-byte reference,
/// and what the writer makes of the bytes it finds at every place of a string.
@Suite struct XMLEscapeCountTests {
    /// Bytes that need escaping or look like them (0xEF 0xBF starts U+FFFE and U+FFFF, and also
    /// U+FFFD and U+FFEF; 0xEF alone U+FE0F and the fullwidth "ｱ"; U+F8FF ends in 0xBF), among
    /// plain ASCII and the bytes of other scalars.
    static let alphabet: [[UInt8]] = [
        Array("&".utf8), Array("<".utf8), Array(">".utf8), Array("=".utf8), Array("?".utf8), [0x09], [0x0A],
        [0x0D], [0x00], [0x1F], Array("\u{FFFE}".utf8), Array("\u{FFFF}".utf8), Array("\u{FE0F}".utf8),
        Array("\u{FFFD}".utf8), Array("\u{FFEF}".utf8), Array("ｱ".utf8), Array("\u{F8FF}".utf8), Array("a".utf8),
        Array(" ".utf8), Array("é".utf8), Array("中".utf8), Array("😀".utf8), Array("~".utf8), [0x7F],
    ]

    @Test func countAgreesWithTheByteByByteReference() {
        var rng = SeededRandom(seed: 47)
        var disagreements = 0
        for _ in 0..<20_000 {
            var text: [UInt8] = []
            let pieces = Int(rng.next() % 40)
            for _ in 0..<pieces {
                // Mostly plain text, so that groups of 16 bytes without a special byte occur too.
                let piece = rng.next() % 3 == 0 ? Self.alphabet[Int(rng.next() % UInt64(Self.alphabet.count))] : [0x61]
                text += piece
            }
            if escapedExtraBytes(text.span) != escapedExtraBytesByteByByte(text.span) { disagreements += 1 }
        }
        #expect(disagreements == 0)
    }

    /// Each special byte at every place of strings of 1 to 40 bytes, the rest plain: the count
    /// finds it wherever it falls in a group of 16 or in the tail.
    @Test func countFindsEachSpecialByteAtEveryPlace() {
        var misses: [String] = []
        for special in Self.alphabet {
            for length in special.count...40 {
                for place in 0...(length - special.count) {
                    var text = [UInt8](repeating: 0x62, count: length)
                    text.replaceSubrange(place..<place + special.count, with: special)
                    let (fast, reference) = (escapedExtraBytes(text.span), escapedExtraBytesByteByByte(text.span))
                    if fast != reference {
                        misses.append("\(special) at \(place) of \(length): \(fast) != \(reference)")
                    }
                }
            }
        }
        #expect(misses.isEmpty, "\(misses.prefix(5))")
    }

    @Test func writerEscapesASpecialByteInTheMiddleOfALongString() throws {
        let text = String(repeating: "x", count: 21) + "<&>" + String(repeating: "y", count: 20)
        let xml = String(decoding: try Plist.string(text).xmlBytes(), as: UTF8.self)
        let expected = String(repeating: "x", count: 21) + "&lt;&amp;&gt;" + String(repeating: "y", count: 20)
        #expect(xml.contains("<string>\(expected)</string>"))
    }
}
