import PlistKit

extension SyntheticData {
    /// 200,000 strings of 1 to 6 words, each mixing one or two non-Latin scripts (and emoji) with
    /// some ASCII, so every string is stored as UTF-16 in a binary plist.
    package static func unicodeStrings() -> Plist {
        var random = SplitMix64(seed: 0x5_7819)
        return .array(
            (0..<200_000).map { _ in
                let scripts = [random.pick(scriptRanges), random.pick(scriptRanges)]
                let words = (0..<random.int(in: 1...6)).map { _ in
                    let range = random.chance(0.15) ? asciiLetters : random.pick(scripts)
                    let scalars = (0..<random.int(in: 1...8)).map { _ in
                        Unicode.Scalar(UInt32(random.int(in: range)))!
                    }
                    return String(String.UnicodeScalarView(scalars))
                }
                return .string(words.joined(separator: " "))
            }
        )
    }

    private static let asciiLetters = 0x61...0x7A

    /// Letters of Latin-1, Latin Extended-A, Greek, Cyrillic, Hebrew, Arabic, Devanagari, Thai,
    /// Hiragana, Katakana, CJK and Hangul, and two emoji blocks (outside the BMP: surrogate pairs).
    private static let scriptRanges: [ClosedRange<Int>] = [
        0xC0...0xD6, 0x100...0x17F, 0x3B1...0x3C9, 0x430...0x44F, 0x5D0...0x5EA, 0x627...0x64A,
        0x905...0x939, 0xE01...0xE2E, 0x3041...0x3096, 0x30A1...0x30FA, 0x4E00...0x9FFF,
        0xAC00...0xD7A3, 0x1F600...0x1F64F, 0x1F300...0x1F5FF,
    ]
}
