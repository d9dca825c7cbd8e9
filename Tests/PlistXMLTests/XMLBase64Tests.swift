import Foundation
import PropertyBased
import Testing

@testable import PlistXML

/// The line-by-line base64 reader (`XMLScalars.base64`, strict lines through swift-extras-base64)
/// gives what the lenient reference (`XMLScalars.lenientBase64`) gives, on text shaped as writers
/// write it and on text that is not: lines of any length, padding anywhere, characters outside
/// the alphabet, white space of every kind.
@Suite struct XMLBase64Tests {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Random base64-like text: mostly alphabet, with white space, padding and junk mixed in.
    static let texts = Generator { rng in
        var text: [UInt8] = []
        let length = Int.random(in: 0...300, using: &rng)
        let lineLength = [4, 8, 60, 64, 76, 3, 5, 7, 0][Int.random(in: 0..<9, using: &rng)]
        for index in 0..<length {
            if lineLength > 0, index > 0, index % lineLength == 0 {
                text += [[0x0A], [0x0A, 0x09, 0x09], [0x0D, 0x0A], [0x20]][Int.random(in: 0..<4, using: &rng)]
            }
            switch Int.random(in: 0..<200, using: &rng) {
            case 0: text.append(UInt8(ascii: "="))
            case 1:
                text.append(
                    [UInt8(ascii: "*"), 0x00, 0xC3, UInt8(ascii: "-"), UInt8(ascii: "_")][
                        Int.random(in: 0..<5, using: &rng)])
            case 2: text.append(0x09)
            default: text.append(alphabet[Int.random(in: 0..<64, using: &rng)])
            }
        }
        if Bool.random(using: &rng) { text += Array("==".utf8).prefix(Int.random(in: 0...2, using: &rng)) }
        return text
    }

    static func reference(_ text: [UInt8]) -> Data {
        Data([UInt8](capacity: text.count) { output in XMLScalars.lenientBase64(text.span, into: &output) })
    }

    @Test func agreesWithTheLenientReader() async {
        await propertyCheck(count: 2000, input: Self.texts) { text in
            #expect(XMLScalars.base64(text.span) == Self.reference(text), "\(String(decoding: text, as: UTF8.self))")
        }
    }

    /// The cases the random texts may miss: padding within and between lines, lines that split
    /// groups, a last group short of padding.
    @Test(arguments: [
        "", "QQ==", "QUI=", "QUJD", "QUJDRA==", "QQ==QUJD", "QUJD\nQQ==\nQUJD", "QUJD\n=QUJD", "QUJ\nDRA==",
        "QUJDR", "QUJDRE", "QUJDREU", "Q===", "QQ=Q", "QUJD RA== RE", "\t\tQUJD\n\t\tREVG\n", "QU*JD", "QUJD\u{0}REVG",
        "QUJD====", "====", "\n\n\n",
    ])
    func agreesOn(_ text: String) {
        let bytes = Array(text.utf8)
        #expect(XMLScalars.base64(bytes.span) == Self.reference(bytes))
    }

    @Test func decodesWhatFoundationEncodes() {
        var generator = SystemRandomNumberGenerator()
        for count in [0, 1, 2, 3, 47, 48, 49, 1000, 65_537] {
            let data = Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let lines = data.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
            #expect(XMLScalars.base64(Array(lines.utf8).span) == data)
        }
    }
}
