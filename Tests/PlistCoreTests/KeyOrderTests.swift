import TestSupport
import Testing

@testable import PlistCore

/// `KeyOrder` against CoreFoundation's definition: UTF-16 code units compared literally.
@Suite struct KeyOrderTests {
    /// Random distinct keys, many sharing their first 8 bytes or more, with NUL, non-ASCII,
    /// private-use and supplementary characters, sorted by `sortedIndices` and by their UTF-16.
    @Test func sortsAsUTF16CodeUnitsCompare() {
        let pieces = [
            "a", "ab", "abcdefgh", "\0", " ", "Z", "_", "~", "é", "e\u{301}", "😀", "\u{E000}", "ｱ", "\u{FFFD}", "ключ",
        ]
        var random = SeededRandom(seed: 8)
        for _ in 0..<200 {
            var keys: [String] = []
            var seen = Set<[UInt16]>()
            for _ in 0..<Int.random(in: 0...60, using: &random) {
                let key = (0..<Int.random(in: 0...5, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                    .joined()
                if seen.insert(Array(key.utf16)).inserted { keys.append(key) }
            }
            let expected = keys.indices.sorted { Array(keys[$0].utf16).lexicographicallyPrecedes(keys[$1].utf16) }
            #expect(KeyOrder.sortedIndices(keys) == expected, "\(keys)")
        }
    }

    /// Writers find each key storage's order once (`KeyOrders`): dictionaries sharing their
    /// keys (made with `mapValues`), among others with the same keys in other orders or other
    /// keys, are written as the same tree with every dictionary's keys its own.
    @Test func sharedKeysAreWrittenInTheOrderOfUnsharedOnes() throws {
        let unsorted: PlistDictionary = ["zeta": 1, "alpha": 2, "\u{E9}t\u{E9}": 3, "Mid": 4]
        let reordered: PlistDictionary = ["Mid": 1, "zeta": 2, "alpha": 3]
        var shared: [Plist] = []
        var unshared: [Plist] = []
        for index in 0..<30 {
            let sharing = unsorted.mapValues { _ in Plist.string("\(index)") }
            #expect(StorageIdentity(keysOf: sharing) == StorageIdentity(keysOf: unsorted))
            let own = PlistDictionary(uniqueKeysWithValues: zip(sharing.keys.map { String($0) }, sharing.values))
            let other = reordered.mapValues { _ in Plist.string("v\(index)") }
            shared += [.dictionary(sharing), .dictionary(other)]
            unshared += [
                .dictionary(own), .dictionary(PlistDictionary(uniqueKeysWithValues: other.map { ($0.key, $0.value) })),
            ]
        }
        let (a, b) = (Plist.array(shared), Plist.array(unshared))
        #expect(try a.xmlBytes() == b.xmlBytes())
        #expect(try a.jsonBytes(options: .init(sortsKeys: true)) == b.jsonBytes(options: .init(sortsKeys: true)))
        #expect(
            try a.openStepBytes(options: .init(sortsKeys: true)) == b.openStepBytes(options: .init(sortsKeys: true)))
        let text = String(decoding: try a.xmlBytes(), as: UTF8.self)
        #expect(text.ranges(of: "<key>Mid</key>\n\t\t<string>7</string>\n\t\t<key>alpha</key>").count == 1)
    }
}
