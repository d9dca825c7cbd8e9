import PlistKit

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The conversions of the typed getters, as Foundation's UserDefaults makes them (its
/// `integer(forKey:)` goes through `NSString.integerValue` for strings, `bool(forKey:)` through
/// `NSString.boolValue`, and so on). `PreferencesSemanticsTests.typedGettersCoerceAsFoundationDoes`
/// states each result.
extension Plist {
    /// An integer from an integer (UInt64 past Int.max wraps, as NSNumber's `integerValue`), a
    /// real (truncated toward zero, clamped), a Boolean (1 or 0) or a string's leading integer.
    var coercedInteger: Int? {
        switch self {
        case .integer(let value): value.int ?? value.uint64.map { Int(truncatingIfNeeded: $0) }
        // `Double(Int.max)` is 2^63, one past `Int.max`: reals from there on are `Int.max`.
        case .real(let value):
            value.isNaN
                ? 0
                : value >= 0x1p63 ? Int.max : Int(value.clamped(Double(Int.min), Double(Int.max)).rounded(.towardZero))
        case .bool(let value): value ? 1 : 0
        case .string(let text): Self.leadingInteger(text)
        default: nil
        }
    }

    /// A double from a real, an integer, a Boolean (1 or 0) or a string's leading number.
    var coercedDouble: Double? {
        switch self {
        case .real(let value): value
        case .integer(let value): value.int64.map(Double.init) ?? value.uint64.map(Double.init)
        case .bool(let value): value ? 1 : 0
        case .string(let text): Self.leadingDouble(text)
        default: nil
        }
    }

    /// A Boolean from a Boolean, a number (non-zero is true) or a string as
    /// `NSString.boolValue` reads it: after spaces, a sign and leading zeros, the first
    /// character is one of `YyTt1-9`.
    var coercedBool: Bool? {
        switch self {
        case .bool(let value): value
        case .integer(let value): value.int64.map { $0 != 0 } ?? true
        case .real(let value): value != 0
        case .string(let text):
            {
                var rest = Substring(text).drop { $0 == " " || $0 == "\t" || $0 == "\n" }
                if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
                rest = rest.drop { $0 == "0" }
                guard let first = rest.first else { return false }
                return "YyTt123456789".contains(first)
            }()
        default: nil
        }
    }

    /// A string from a string, or the text of a number (Booleans are `1` and `0`, as NSNumber
    /// gives them).
    var coercedString: String? {
        switch self {
        case .string(let value): value
        case .integer(let value): "\(value)"
        case .real(let value):
            value.rounded() == value && abs(value) < 1e15 ? "\(Int64(value))" : "\(value)"
        case .bool(let value): value ? "1" : "0"
        default: nil
        }
    }

    /// A URL from a string: one with a scheme (`https:`, `file:`) as it is, any other as a file
    /// path, `~` expanded to the home folder.
    var coercedURL: URL? {
        guard case .string(let text) = self, !text.isEmpty else { return nil }
        if let colon = text.firstIndex(of: ":"),
            text[..<colon].allSatisfy({ $0.isLetter || $0 == "+" || $0 == "-" || $0 == "." }),
            !text[..<colon].isEmpty, let url = URL(string: text)
        {
            return url
        }
        var path = text
        if path == "~" || path.hasPrefix("~/"),
            let home = ProcessInfo.processInfo.environment["HOME"]
        {
            path = home + path.dropFirst()
        }
        return URL(fileURLWithPath: path)
    }

    /// `NSString.integerValue`: spaces, an optional sign, digits; 0 when there are none;
    /// clamped on overflow.
    private static func leadingInteger(_ text: String) -> Int {
        var rest = Substring(text).drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        var negative = false
        if let sign = rest.first, sign == "+" || sign == "-" {
            negative = sign == "-"
            rest = rest.dropFirst()
        }
        var value = 0
        for character in rest {
            guard let digit = character.wholeNumberValue, character.isASCII else { break }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) =
                negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return negative ? Int.min : Int.max }
            value = sum
        }
        return value
    }

    /// `NSString.doubleValue`: the longest leading decimal number; 0 when there is none.
    private static func leadingDouble(_ text: String) -> Double {
        let rest = Substring(text).drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        var best = 0.0
        var end = rest.startIndex
        while end < rest.endIndex {
            end = rest.index(after: end)
            let candidate = rest[..<end]
            if let value = Double(candidate) {
                best = value
            } else if !"+-.eE0123456789".contains(rest[rest.index(before: end)]) {
                break
            }
        }
        return best
    }
}

extension Double {
    fileprivate func clamped(_ low: Double, _ high: Double) -> Double { Swift.min(Swift.max(self, low), high) }
}
