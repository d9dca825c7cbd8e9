import Foundation
public import PlistCore

/// Random `Plist` values for property-based and differential tests.
///
/// Every kind of value appears, with the edge cases of the binary format drawn often: integers
/// at every width boundary, -0.0, NaNs and infinities, subnormals, dates with fractions or before
/// 2001, ASCII, non-ASCII and astral strings (NFC and NFD spellings as different values), data
/// and containers with counts around 15 and above 255, UIDs of every width, and scalars repeated
/// within one value so the writer's uniquing is exercised. Nesting and size are bounded.
public struct PlistGenerator: Sendable {
    /// What the generated values may contain.
    public struct Profile: Sendable {
        /// Whether NaNs other than `Double.nan` (negative, signalling, with a payload) appear as
        /// reals and dates.
        public var exoticNaNs: Bool
        /// The largest UID generated.
        public var maxUID: UInt64
        /// Whether every date is finite and within the years 1 to 9999 (NaN, infinite and far
        /// dates appear otherwise).
        public var calendarDatesOnly: Bool
        /// Whether strings and keys may contain U+0000.
        public var allowsNUL: Bool
        /// Whether the keys of one dictionary also differ as Swift strings (no two canonically
        /// equivalent spellings, which Foundation on Linux merges into one key).
        public var keysDistinctAsStrings: Bool

        public init(
            exoticNaNs: Bool, maxUID: UInt64, calendarDatesOnly: Bool, allowsNUL: Bool,
            keysDistinctAsStrings: Bool = false
        ) {
            self.exoticNaNs = exoticNaNs
            self.maxUID = maxUID
            self.calendarDatesOnly = calendarDatesOnly
            self.allowsNUL = allowsNUL
            self.keysDistinctAsStrings = keysDistinctAsStrings
        }

        /// Anything the value tree can hold.
        public static let everything = Profile(
            exoticNaNs: true, maxUID: .max, calendarDatesOnly: false, allowsNUL: true)
        /// What CPython's plistlib and Foundation handle: text dumps keep no NaN payload or sign;
        /// Foundation reads UIDs of at most 32 bits; Python's datetime covers only the years 1 to 9999.
        public static let oracleSafe = Profile(
            exoticNaNs: false, maxUID: UInt64(UInt32.max), calendarDatesOnly: true, allowsNUL: true)
        /// `oracleSafe` for Foundation on Linux, which merges canonically equivalent keys.
        public static let foundationSafe = Profile(
            exoticNaNs: false, maxUID: UInt64(UInt32.max), calendarDatesOnly: true, allowsNUL: true,
            keysDistinctAsStrings: true)
        /// `oracleSafe` without NUL characters, which libplist 2.2 mangles in strings (C strings).
        public static let libplistSafe = Profile(
            exoticNaNs: false, maxUID: UInt64(UInt32.max), calendarDatesOnly: true, allowsNUL: false)
    }

    public var profile: Profile
    /// The deepest nesting of containers (the top container is depth 1).
    public var maxDepth: Int
    /// Roughly the most values in one generated tree.
    public var maxNodes: Int

    public init(profile: Profile = .everything, maxDepth: Int = 4, maxNodes: Int = 2000) {
        self.profile = profile
        self.maxDepth = maxDepth
        self.maxNodes = maxNodes
    }

    /// One random value.
    public func value(using rng: inout some RandomNumberGenerator) -> Plist {
        var builder = Builder(settings: self)
        return builder.value(depth: 0, using: &rng)
    }
}

/// A small deterministic random number generator (SplitMix64), for reproducible values.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension PlistGenerator {
    /// Builds one value, remembering its scalars so later ones can repeat them.
    private struct Builder {
        let settings: PlistGenerator
        var scalars: [Plist] = []
        var nodes = 0

        mutating func value(depth: Int, using rng: inout some RandomNumberGenerator) -> Plist {
            nodes += 1
            let containerPercent = depth == 0 ? 75 : 45 - 8 * depth
            guard depth < settings.maxDepth, nodes < settings.maxNodes,
                Int.random(in: 0..<100, using: &rng) < containerPercent
            else { return scalar(using: &rng) }
            let count = containerCount(using: &rng)
            // Big containers hold only scalars, which keeps the whole tree small.
            let childDepth = count > 40 ? settings.maxDepth : depth + 1
            if Bool.random(using: &rng) {
                var elements: [Plist] = []
                for _ in 0..<count where nodes < settings.maxNodes {
                    elements.append(value(depth: childDepth, using: &rng))
                }
                return .array(elements)
            }
            var entries = PlistDictionary()
            var asStrings: Set<String> = []
            for _ in 0..<count where nodes < settings.maxNodes {
                let key = key(using: &rng)
                if settings.profile.keysDistinctAsStrings, !asStrings.insert(key).inserted,
                    entries.index(forKey: key) == nil
                {
                    continue
                }
                entries[key] = value(depth: childDepth, using: &rng)
            }
            return .dictionary(entries)
        }

        private func containerCount(using rng: inout some RandomNumberGenerator) -> Int {
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<12: 0
            case 12..<75: Int.random(in: 1...6, using: &rng)
            case 75..<90: Int.random(in: 13...17, using: &rng)
            case 90..<95: Int.random(in: 30...40, using: &rng)
            default: Int.random(in: 254...300, using: &rng)
            }
        }

        /// A dictionary key: often a string used elsewhere in the value.
        private mutating func key(using rng: inout some RandomNumberGenerator) -> String {
            let strings = scalars.compactMap(\.string)
            if !strings.isEmpty, Int.random(in: 0..<100, using: &rng) < 30 {
                return strings.randomElement(using: &rng)!
            }
            let key = string(using: &rng)
            scalars.append(.string(key))
            return key
        }

        /// A scalar: one in five repeats an earlier scalar of this value.
        private mutating func scalar(using rng: inout some RandomNumberGenerator) -> Plist {
            if !scalars.isEmpty, Int.random(in: 0..<100, using: &rng) < 20 {
                return scalars.randomElement(using: &rng)!
            }
            let value: Plist =
                switch Int.random(in: 0..<8, using: &rng) {
                case 0: .string(string(using: &rng))
                case 1: .integer(Self.integer(using: &rng))
                case 2: .real(real(using: &rng))
                case 3: .bool(Bool.random(using: &rng))
                case 4: .date(Date(timeIntervalSinceReferenceDate: dateSeconds(using: &rng)))
                case 5: .data(Self.data(using: &rng))
                default: .uid(uid(using: &rng))
                }
            scalars.append(value)
            return value
        }

        static let stringPieces = [
            "", "a", "key", "Hello, World", "0123456789abcdef", "\u{E9}", "e\u{301}", "\u{C5}", "A\u{30A}",
            "\u{1F600}", "\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}", "\u{10FFFF}", "\u{65E5}\u{672C}\u{8A9E}",
            "\u{3A9}", "\u{0}", "\t\n\r", "<&>\"'", "\u{7F}", "\u{80}", "\u{FEFF}", "\u{FFFD}", "\u{FFFF}", " ",
            // Spellings Swift's `String` calls equal and property lists keep apart.
            "\u{212B}", "\u{2126}", "\u{212A}", "K", "\u{1100}\u{1161}", "\u{AC00}", "\u{37E}", ";",
        ]

        static let scalarRanges: [ClosedRange<UInt32>] = [
            0x20...0x7E, 0x00...0x7F, 0xA0...0xFF, 0x100...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF,
        ]

        /// Up to four pieces: fixed edge cases and runs of random scalars of one Unicode range.
        func string(using rng: inout some RandomNumberGenerator) -> String {
            var result = ""
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                if Bool.random(using: &rng) {
                    result += Self.stringPieces.randomElement(using: &rng)!
                } else {
                    let range = Self.scalarRanges.randomElement(using: &rng)!
                    for _ in 0..<Int.random(in: 1...20, using: &rng) {
                        result.unicodeScalars.append(Unicode.Scalar(UInt32.random(in: range, using: &rng))!)
                    }
                }
            }
            if !settings.profile.allowsNUL { result.unicodeScalars.removeAll { $0 == "\u{0}" } }
            return result
        }

        static let integerEdges: [PlistInteger] = [
            0, 1, -1, 14, 15, 16, 127, 128, 255, 256, 65535, 65536, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF,
            0x1_0000_0000, PlistInteger(Int64.max), PlistInteger(Int64.min), PlistInteger(Int64.min + 1),
            PlistInteger(UInt64(Int64.max) + 1), PlistInteger(UInt64.max), -128, -129, -32768, -0x8000_0000,
        ]

        /// An edge value, or a random one of random bit width, negative, or above `Int64.max`.
        static func integer(using rng: inout some RandomNumberGenerator) -> PlistInteger {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: return integerEdges.randomElement(using: &rng)!
            case 1: return PlistInteger(UInt64.random(in: UInt64(Int64.max) + 1 ... .max, using: &rng))
            default:
                let bits = UInt64.random(in: 0 ... .max, using: &rng) >> UInt64.random(in: 0...63, using: &rng)
                let value = Int64(bitPattern: bits >> 1)
                return PlistInteger(Bool.random(using: &rng) ? value : -value - 1)
            }
        }

        static let realEdges: [Double] = [
            0, -0.0, 1, -1, 0.5, 0.1, 1e300, -1e-300, .infinity, -.infinity, .nan,
            .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude,
            -.greatestFiniteMagnitude, Double(Float.pi), .pi, 9_007_199_254_740_994,
        ]

        static let exoticNaNs: [Double] = [
            -.nan, .signalingNaN, -.signalingNaN, Double(nan: 0x1234, signaling: false),
            Double(bitPattern: 0x7FF0_0000_0000_0001), Double(bitPattern: 0xFFFF_FFFF_FFFF_FFFF),
        ]

        func real(using rng: inout some RandomNumberGenerator) -> Double {
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: return Self.realEdges.randomElement(using: &rng)!
            case 1: return Double(bitPattern: UInt64.random(in: 1..<(1 << 52), using: &rng))  // subnormal
            case 2 where settings.profile.exoticNaNs: return Self.exoticNaNs.randomElement(using: &rng)!
            case 2: return Double.random(in: -1e6...1e6, using: &rng)
            default:
                let value = Double(bitPattern: UInt64.random(in: 0 ... .max, using: &rng))
                return value.isNaN && !settings.profile.exoticNaNs ? .nan : value
            }
        }

        static let dateEdges: [Double] = [
            0, -0.0, 0.5, -0.5, 1e-6, 123456789.123456, -978_307_200, -978307200.25, -3_187_296_000,
            -63_113_904_000, 252_423_993_599, 1e15, -1e15, .infinity, -.infinity, .nan, .greatestFiniteMagnitude,
        ]

        /// The seconds since 2001 of 0001-01-01 and of 10000-01-01.
        static let calendarRange = -63113904000.0..<252423993600.0

        /// Seconds since 2001: an edge value, a random time between the years 1 and 9999 (with or
        /// without a fraction), or any bit pattern.
        func dateSeconds(using rng: inout some RandomNumberGenerator) -> Double {
            let seconds = anyDateSeconds(using: &rng)
            guard settings.profile.calendarDatesOnly, !Self.calendarRange.contains(seconds) else { return seconds }
            return seconds.isNaN ? 0 : min(max(seconds, Self.calendarRange.lowerBound), 252423993599.5)
        }

        private func anyDateSeconds(using rng: inout some RandomNumberGenerator) -> Double {
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: return Self.dateEdges.randomElement(using: &rng)!
            case 1: return Double(Int64.random(in: -63_113_904_000...252_423_993_599, using: &rng))
            case 2 where settings.profile.exoticNaNs: return Self.exoticNaNs.randomElement(using: &rng)!
            case 4:
                let value = Double(bitPattern: UInt64.random(in: 0 ... .max, using: &rng))
                return value.isNaN && !settings.profile.exoticNaNs ? .nan : value
            default: return Double.random(in: -63_113_904_000...252_423_993_599, using: &rng)
            }
        }

        static func data(using rng: inout some RandomNumberGenerator) -> Data {
            let count =
                Bool.random(using: &rng)
                ? [0, 1, 14, 15, 16, 255, 256].randomElement(using: &rng)! : Int.random(in: 0...300, using: &rng)
            return Data((0..<count).map { _ in UInt8.random(in: 0 ... .max, using: &rng) })
        }

        static let uidEdges: [UInt64] = [0, 1, 255, 256, 65535, 65536, 0xFFFF_FFFF, 0x1_0000_0000, .max]

        /// A UID of any width up to the profile's limit.
        func uid(using rng: inout some RandomNumberGenerator) -> UInt64 {
            let limit = settings.profile.maxUID
            if Bool.random(using: &rng) {
                return Self.uidEdges.filter { $0 <= limit }.randomElement(using: &rng)!
            }
            let width = UInt64([8, 16, 32, 64].randomElement(using: &rng)!)
            let value =
                width == 64
                ? UInt64.random(in: 0 ... .max, using: &rng) : UInt64.random(in: 0..<(1 << width), using: &rng)
            return min(value, limit)
        }
    }
}
