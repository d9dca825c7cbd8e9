/// A property-list integer: any value from `Int64.min` through `UInt64.max`.
///
/// Binary property lists store values above `Int64.max` as 128-bit integers; this type keeps
/// them exact, and every writer writes them back unchanged.
public struct PlistInteger: Hashable, Sendable {
    // Invariant: `isNegative` is true exactly when the value is below zero; `bits` is the value
    // modulo 2^64 (the two's-complement bits of a negative value).
    private let bits: UInt64
    private let isNegative: Bool

    /// The integer `value`.
    public init(_ value: Int64) {
        bits = UInt64(bitPattern: value)
        isNegative = value < 0
    }

    /// The integer `value`.
    public init(_ value: UInt64) {
        bits = value
        isNegative = false
    }

    /// The integer `value`.
    public init(_ value: Int) { self.init(Int64(value)) }

    /// The integer `value`, or `nil` when it lies outside `Int64.min...UInt64.max`.
    public init?(exactly value: some BinaryInteger) {
        if let signed = Int64(exactly: value) {
            self.init(signed)
        } else if let unsigned = UInt64(exactly: value) {
            self.init(unsigned)
        } else {
            return nil
        }
    }

    /// The value as an `Int64`, or `nil` when it is above `Int64.max`.
    public var int64: Int64? { isNegative || bits <= UInt64(Int64.max) ? Int64(bitPattern: bits) : nil }

    /// The value as a `UInt64`, or `nil` when it is negative.
    public var uint64: UInt64? { isNegative ? nil : bits }

    /// The value as an `Int`, or `nil` when it does not fit.
    public var int: Int? { int64.flatMap { Int(exactly: $0) } }

    /// True when the value is below zero.
    public var isNegativeValue: Bool { isNegative }

    /// The value's 64 low bits: the value itself when non-negative, its two's complement otherwise.
    public var bitPattern: UInt64 { bits }
}

extension PlistInteger: Comparable {
    /// Orders by numeric value.
    public static func < (lhs: PlistInteger, rhs: PlistInteger) -> Bool {
        if lhs.isNegative != rhs.isNegative { return lhs.isNegative }
        return lhs.isNegative ? Int64(bitPattern: lhs.bits) < Int64(bitPattern: rhs.bits) : lhs.bits < rhs.bits
    }
}

extension PlistInteger: ExpressibleByIntegerLiteral {
    /// An integer from a literal; literals outside `Int64.min...UInt64.max` do not compile.
    public init(integerLiteral value: StaticBigInt) {
        isNegative = value.signum() < 0
        precondition(value.bitWidth <= (isNegative ? 64 : 65), "PlistInteger literal out of range")
        bits = UInt64(truncatingIfNeeded: value[0])
    }
}

extension PlistInteger: CustomStringConvertible {
    /// The decimal value.
    public var description: String { isNegative ? String(Int64(bitPattern: bits)) : String(bits) }
}
