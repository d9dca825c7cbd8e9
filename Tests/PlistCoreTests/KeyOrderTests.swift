import TestSupport
import Testing

@testable import PlistCore

/// `KeyOrder` against CoreFoundation's definition: UTF-16 code units compared literally.
@Suite struct KeyOrderTests {
    /// Random distinct keys, many sharing their first 8 bytes or more, with NUL, non-ASCII,
    /// private-use and supplementary characters, sorted by `sortedIndices` and by their UTF-16.
    @Test func sortsAsUTF16CodeUnitsCompare() {
        let pieces = ["a", "ab", "abcdefgh", "\0", " ", "Z", "_", "~", "é", "e\u{301}", "😀", "\u{E000}", "ｱ", "\u{FFFD}", "ключ"]
        var random = SeededRandom(seed: 8)
        for _ in 0..<200 {
            var keys: [String] = []
            var seen = Set<[UInt16]>()
            for _ in 0..<Int.random(in: 0...60, using: &random) {
                let key = (0..<Int.random(in: 0...5, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
                if seen.insert(Array(key.utf16)).inserted { keys.append(key) }
            }
            let expected = keys.indices.sorted { Array(keys[$0].utf16).lexicographicallyPrecedes(keys[$1].utf16) }
            #expect(KeyOrder.sortedIndices(keys) == expected, "\(keys)")
        }
    }
}
