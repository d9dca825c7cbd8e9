/// The text of a `<real>` exactly as CoreFoundation writes it (`__CFNumberCopyFormattingDescriptionAsFloat64`):
/// `nan` for every NaN, `+infinity` / `-infinity`, `0.0` for both zeros (the sign of -0.0 is lost),
/// and otherwise C's `%.17g`: the exact binary value correctly rounded to 17 significant digits
/// (ties to even, as glibc does), in fixed notation when the decimal exponent is in -4...16 and
/// as `d.ddde±XX` otherwise, with trailing zeros and a bare decimal point removed.
/// Examples checked against Foundation: 0.1 → `0.10000000000000001`, 1.0 → `1`, 1e16 →
/// `10000000000000000`, 1e17 → `1e+17`, 1e23 → `9.9999999999999992e+22`, 1e-5 →
/// `1.0000000000000001e-05`, 5e-324 → `4.9406564584124654e-324`.
enum XMLReal {
    static func append(_ value: Double, to out: inout ShortText) {
        if value.isNaN { return out.append(contentsOf: "nan".utf8) }
        if value.isInfinite { return out.append(contentsOf: (value > 0 ? "+infinity" : "-infinity").utf8) }
        if value == 0 { return out.append(contentsOf: "0.0".utf8) }
        if value < 0 { out.append(UInt8(ascii: "-")) }
        let (digits, exponent) = seventeenDigits(of: value.magnitude)
        appendG(digits: digits, exponent: exponent, to: &out)
    }

    /// The 17 significant digits of positive finite `x` as an integer in 10^16..<10^17, and the
    /// decimal exponent of the first digit: `x ≈ digits × 10^(exponent - 16)`.
    static func seventeenDigits(of x: Double) -> (digits: UInt64, exponent: Int) {
        // x = m × 2^e exactly.
        let isSubnormal = x.exponentBitPattern == 0
        let m = isSubnormal ? x.significandBitPattern : x.significandBitPattern | 1 << 52
        let e = isSubnormal ? -1074 : Int(x.exponentBitPattern) - 1075
        // floor(log10(2^b)) for 2^b <= x: the decimal exponent or one less.
        let b = e + (64 - m.leadingZeroBitCount) - 1
        let estimate = (b * 78_913) >> 18
        let p = 16 - estimate
        // Invariant: q = floor(x × 10^p) lies in 10^16..<10^18 (17 or 18 digits).
        var (q, rest) = p >= 0 ? scaledUp(m, e, by: p) : scaledDown(m, e, by: -p)
        var exponent = estimate
        if q >= 100_000_000_000_000_000 {
            let dropped = q % 10
            q /= 10
            exponent += 1
            rest =
                switch dropped {
                case 0: rest == .zero ? .zero : .belowHalf
                case 1...4: .belowHalf
                case 5: rest == .zero ? .half : .aboveHalf
                default: .aboveHalf
                }
        }
        if rest == .aboveHalf || (rest == .half && q & 1 == 1) {
            q += 1
            if q == 100_000_000_000_000_000 {
                q = 10_000_000_000_000_000
                exponent += 1
            }
        }
        return (q, exponent)
    }

    /// What was cut off when truncating to an integer, compared with one half.
    enum Remainder { case zero, belowHalf, half, aboveHalf }

    /// floor(m × 2^e × 10^p) for p >= 0, computed as (m × 5^p) × 2^(e + p): a shift, no division.
    private static func scaledUp(_ m: UInt64, _ e: Int, by p: Int) -> (UInt64, Remainder) {
        var n = WideUInt(m)
        var power = p
        while power >= 27 {
            n.multiply(by: 7_450_580_596_923_828_125)  // 5^27
            power -= 27
        }
        var last: UInt64 = 1
        for _ in 0..<power { last *= 5 }
        n.multiply(by: last)
        let shift = e + p
        if shift >= 0 { return (n.low << UInt64(shift), .zero) }
        return n.shiftedRight(by: -shift)
    }

    /// floor(m × 2^e / 10^n) for n > 0 (only reached for x >= 10^17, where e >= n), computed as
    /// (m × 2^(e - n)) / 5^n. The quotient is below 2^60, so the divisor's top 64 bits estimate
    /// it to within 2, and the exact remainder corrects the estimate.
    private static func scaledDown(_ m: UInt64, _ e: Int, by n: Int) -> (UInt64, Remainder) {
        var remainder = WideUInt(m)
        remainder.shiftLeft(by: e - n)
        var divisor = WideUInt(1)
        var power = n
        while power >= 27 {
            divisor.multiply(by: 7_450_580_596_923_828_125)
            power -= 27
        }
        var last: UInt64 = 1
        for _ in 0..<power { last *= 5 }
        divisor.multiply(by: last)
        let shift = max(0, divisor.bitWidth - 64)
        let numerator = remainder.bits(from: shift)
        let top = UInt64(truncatingIfNeeded: divisor.bits(from: shift))
        var q: UInt64
        if shift == 0 {
            // Invariant: the whole numerator is below 2^124 here, so this division is exact.
            q = UInt64(truncatingIfNeeded: numerator / UInt128(top))
        } else {
            q = UInt64(truncatingIfNeeded: numerator / (UInt128(top) + 1))
        }
        var product = divisor
        product.multiply(by: q)
        remainder.subtract(product)
        while remainder.compare(divisor) >= 0 {
            remainder.subtract(divisor)
            q += 1
        }
        if remainder.isZero { return (q, .zero) }
        remainder.shiftLeft(by: 1)
        let order = remainder.compare(divisor)
        return (q, order < 0 ? .belowHalf : order == 0 ? .half : .aboveHalf)
    }

    /// `%g` layout of 17 digits (`digits` in 10^16..<10^17) whose first digit is at 10^`exponent`.
    private static func appendG(digits: UInt64, exponent: Int, to out: inout ShortText) {
        var text = InlineArray<17, UInt8>(repeating: 0)
        var rest = digits
        for index in stride(from: 16, through: 0, by: -1) {
            text[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        var significant = 17
        while significant > 1, text[significant - 1] == UInt8(ascii: "0") { significant -= 1 }
        if exponent < -4 || exponent >= 17 {
            out.append(text[0])
            if significant > 1 {
                out.append(UInt8(ascii: "."))
                for index in 1..<significant { out.append(text[index]) }
            }
            out.append(UInt8(ascii: "e"))
            out.append(UInt8(ascii: exponent < 0 ? "-" : "+"))
            let magnitude = exponent.magnitude
            if magnitude < 10 { out.append(UInt8(ascii: "0")) }
            if magnitude >= 100 { out.append(UInt8(ascii: "0") + UInt8(magnitude / 100)) }
            if magnitude >= 10 { out.append(UInt8(ascii: "0") + UInt8(magnitude / 10 % 10)) }
            out.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
        } else if exponent >= 0 {
            for index in 0...exponent { out.append(text[index]) }
            if significant > exponent + 1 {
                out.append(UInt8(ascii: "."))
                for index in (exponent + 1)..<significant { out.append(text[index]) }
            }
        } else {
            out.append(UInt8(ascii: "0"))
            out.append(UInt8(ascii: "."))
            for _ in 0..<(-exponent - 1) { out.append(UInt8(ascii: "0")) }
            for index in 0..<significant { out.append(text[index]) }
        }
    }
}

/// A fixed-capacity unsigned integer of up to 18 × 64 bits (enough for 2^1025 and for
/// 2^53 × 5^340), little-endian limbs, no allocation.
private struct WideUInt {
    // Invariant: limbs at `count` and above are zero; `count` <= 18.
    private var limbs = InlineArray<18, UInt64>(repeating: 0)
    private var count = 1

    init(_ value: UInt64) { limbs[0] = value }

    var low: UInt64 { limbs[0] }

    /// The number of significant bits.
    var bitWidth: Int { count * 64 - limbs[count - 1].leadingZeroBitCount }

    /// The 128 bits from bit `start` up.
    func bits(from start: Int) -> UInt128 {
        func limb(_ index: Int) -> UInt128 { index < count ? UInt128(limbs[index]) : 0 }
        let word = start / 64
        let offset = start % 64
        var result = (limb(word) | limb(word + 1) << 64) >> offset
        if offset > 0 { result |= limb(word + 2) << (128 - offset) }
        return result
    }

    var isZero: Bool { count == 1 && limbs[0] == 0 }

    mutating func multiply(by factor: UInt64) {
        var carry: UInt64 = 0
        for index in 0..<count {
            let (high, low) = limbs[index].multipliedFullWidth(by: factor)
            let (sum, overflow) = low.addingReportingOverflow(carry)
            limbs[index] = sum
            carry = high &+ (overflow ? 1 : 0)
        }
        if carry != 0 {
            limbs[count] = carry
            count += 1
        }
        while count > 1, limbs[count - 1] == 0 { count -= 1 }
    }

    mutating func shiftLeft(by bits: Int) {
        let words = bits / 64
        let offset = UInt64(bits % 64)
        let newCount = count + words + 1
        for index in stride(from: newCount - 1, through: 0, by: -1) {
            let source = index - words
            var word: UInt64 = source >= 0 && source < count ? limbs[source] << offset : 0
            if offset > 0, source - 1 >= 0, source - 1 < count { word |= limbs[source - 1] >> (64 - offset) }
            limbs[index] = word
        }
        count = newCount
        while count > 1, limbs[count - 1] == 0 { count -= 1 }
    }

    /// The 64 bits from bit `bits` up (the value must be below 2^(bits + 64)), and how the bits
    /// below compare with half of 2^`bits`.
    func shiftedRight(by bits: Int) -> (UInt64, XMLReal.Remainder) {
        let word = bits / 64
        let offset = UInt64(bits % 64)
        var q = word < count ? limbs[word] >> offset : 0
        if offset > 0, word + 1 < count { q |= limbs[word + 1] << (64 - offset) }
        let halfBit = bits - 1
        let halfWord = halfBit / 64
        let halfMask: UInt64 = 1 << UInt64(halfBit % 64)
        let hasHalf = halfWord < count && limbs[halfWord] & halfMask != 0
        var hasLower = halfWord < count && limbs[halfWord] & (halfMask - 1) != 0
        for index in 0..<min(halfWord, count) where limbs[index] != 0 { hasLower = true }
        let rest: XMLReal.Remainder = hasHalf ? (hasLower ? .aboveHalf : .half) : (hasLower ? .belowHalf : .zero)
        return (q, rest)
    }

    /// -1, 0 or 1 as `self` is below, equal to or above `other`.
    func compare(_ other: WideUInt) -> Int {
        if count != other.count { return count < other.count ? -1 : 1 }
        for index in stride(from: count - 1, through: 0, by: -1) where limbs[index] != other.limbs[index] {
            return limbs[index] < other.limbs[index] ? -1 : 1
        }
        return 0
    }

    /// Subtracts `other`, which must not be larger.
    mutating func subtract(_ other: WideUInt) {
        var borrow = false
        for index in 0..<count {
            let (partial, overflow1) = limbs[index].subtractingReportingOverflow(other.limbs[index])
            let (result, overflow2) = partial.subtractingReportingOverflow(borrow ? 1 : 0)
            limbs[index] = result
            borrow = overflow1 || overflow2
        }
        while count > 1, limbs[count - 1] == 0 { count -= 1 }
    }
}
