/// SplitMix64 (Steele, Lea and Flood): a tiny seeded generator, so every run builds the same inputs.
///
/// The helpers below use their own arithmetic rather than the standard library's `random(in:)`,
/// whose algorithm may change between toolchains.
package struct SplitMix64 {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound` (multiply-shift; the bias is negligible for the bounds used here).
    package mutating func below(_ bound: Int) -> Int {
        Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    package mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.count)
    }

    /// A value in `0..<1` with 53 random bits.
    package mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    package mutating func chance(_ probability: Double) -> Bool {
        unit() < probability
    }

    package mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[below(elements.count)]
    }

    /// `count` random bytes.
    package mutating func bytes(_ count: Int) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(count + 8)
        while result.count < count {
            withUnsafeBytes(of: next().littleEndian) { result.append(contentsOf: $0) }
        }
        result.removeLast(result.count - count)
        return result
    }

    /// `digits` uppercase hexadecimal digits, like an iTunes persistent ID.
    package mutating func hex(digits: Int) -> String {
        var text = ""
        while text.count < digits {
            text += String(next(), radix: 16, uppercase: true)
        }
        return String(text.prefix(digits))
    }
}
