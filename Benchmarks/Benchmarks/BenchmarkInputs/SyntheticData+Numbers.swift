import PlistKit

extension SyntheticData {
    /// 1,000,000 numbers: small, 32-bit, 64-bit and negative integers, and reals.
    package static func numbers() -> Plist {
        var random = SplitMix64(seed: 0x0_BEEF)
        return .array(
            (0..<1_000_000).map { _ in
                switch random.below(100) {
                case 0..<35: Plist(random.below(256))
                case 35..<50: Plist(random.below(1 << 31))
                case 50..<60: Plist(Int64(bitPattern: random.next() >> 1))
                case 60..<75: Plist(-1 - random.below(1 << 40))
                case 75..<85: .real(Double(random.int(in: -2_000...2_000)) / 4)
                default: .real((random.unit() - 0.5) * 1e9)
                }
            }
        )
    }
}
