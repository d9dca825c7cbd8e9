import Foundation
import TestSupport
import Testing

@testable import PlistCore

/// The byte-level format check (`ASCIIStart`) against its reference, which decodes the first
/// 4 KB into scalars (`PlistFormat.detectByDecoding`): whatever it decides, the reference decides
/// the same.
@Suite struct ASCIIStartTests {
    static func agree(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let quick: PlistFormat?
        switch ASCIIStart.detect(bytes.span) {
        case .undecided: return false
        case .notAPropertyList: quick = nil
        case .format(let format): quick = format
        }
        #expect(
            quick == PlistFormat.detectByDecoding(bytes.span), "\(bytes.prefix(64))", sourceLocation: sourceLocation)
        return true
    }

    /// Random starts made of the pieces that decide a format: white space of every kind,
    /// byte-order marks, XML starts, JSON and OpenStep punctuation, escapes, non-ASCII and
    /// invalid UTF-8, control characters.
    @Test func agreesOnRandomStarts() {
        let pieces: [[UInt8]] =
            [
                " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{A0}", "\u{85}", "\u{2028}", "<?xml", "<!DOCTYPE",
                "<plist>",
                "<dict/>", "<data>", "<0fbd>", "<", "[", "{", "}", "\"", "\\", ":", "=", ";", "key", "é", "😀", "\u{1C}",
                "\u{7F}", "x",
            ].map { Array($0.utf8) } + [
                [0xEF, 0xBB, 0xBF], [0xFE, 0xFF], [0xFF, 0xFE], [0x00], [0x80], [0xC3], [0xE2, 0x80], [0xFF],
            ]
        var random = SeededRandom(seed: 4096)
        var decided = 0
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 1...8, using: &random)).flatMap { _ in pieces.randomElement(using: &random)!
            }
            if Self.agree(bytes) { decided += 1 }
        }
        #expect(decided > 5_000)
    }

    /// JSON keys that end near the 4 KB both checks read, and white space up to it.
    @Test func agreesAroundTheEndOfWhatIsRead() {
        var decided = 0
        for length in 4_085...4_100 {
            let key = Array(repeating: UInt8(ascii: "a"), count: length - 6)
            for bytes in [
                Array("{\"".utf8) + key + Array("\": 1}".utf8),
                Array(repeating: 0x20, count: length) + [UInt8(ascii: "<")],
            ] {
                if Self.agree(bytes) { decided += 1 }
            }
        }
        #expect(decided >= 16)
    }

    /// Every file of the fixtures and of the shared corpus (when it is here).
    @Test func agreesOnEveryFile() throws {
        var files = try FileManager.default.subpathsOfDirectory(atPath: Paths.fixtures.path).map {
            Paths.fixtures.appendingPathComponent($0)
        }
        if Corpus.isAvailable { files += Corpus.entries.map(\.url) }
        var decided = 0
        for file in files where !file.hasDirectoryPath {
            guard let data = FileManager.default.contents(atPath: file.path) else { continue }
            if Self.agree(Array(data)) { decided += 1 }
        }
        #expect(decided > 50)
    }
}
