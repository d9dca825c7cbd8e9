public import Foundation
public import PlistCore

/// How closely a format keeps a value it writes: what "reads back to the same value" means for
/// each writer (docs/COMPATIBILITY.md, "What each format keeps").
public enum ReadBackPrecision: Sendable {
    /// Every bit: reals and dates by their bits, NaN payloads and the sign of zero included.
    case exact
    /// Text formats that keep numbers exactly but not NaN payloads or signs (XML also writes
    /// -0.0 as `0.0`, as CF does), and with `wholeSecondDates` dates in whole seconds (CF
    /// rounds a date down, and can round a second up to 60, which reads back as the next minute).
    case text(keepsZeroSign: Bool, wholeSecondDates: Bool)
    /// Lossy by request (`--stringify`, JSON `lossy`): the output need only read back.
    case readable
}

extension Plist {
    /// Whether `back`, read from what was written of this value, is this value within `precision`
    /// (dictionaries in any order).
    public func isReadBack(_ back: Plist, within precision: ReadBackPrecision) -> Bool {
        switch precision {
        case .readable: return true
        case .exact: return self == back
        case .text(let keepsZeroSign, let wholeSecondDates):
            switch (self, back) {
            case (.real(let a), .real(let b)):
                return a.isNaN ? b.isNaN : a == b && (!keepsZeroSign || a.sign == b.sign)
            case (.date(let a), .date(let b)):
                let (x, y) = (a.timeIntervalSinceReferenceDate, b.timeIntervalSinceReferenceDate)
                return x.isNaN ? y.isNaN : x == y || wholeSecondDates && abs(x.rounded(.down) - y) <= 1
            case (.array(let a), .array(let b)):
                return a.count == b.count && zip(a, b).allSatisfy { $0.isReadBack($1, within: precision) }
            case (.dictionary(let a), .dictionary(let b)):
                return a.count == b.count
                    && a.allSatisfy { key, value in b[key].map { value.isReadBack($0, within: precision) } ?? false }
            default: return self == back
            }
        }
    }
}

extension Plist {
    /// The key path and both values of the first place where `back` is not this value within
    /// `precision`, for failure messages.
    public func difference(from back: Plist, within precision: ReadBackPrecision) -> String? {
        guard !isReadBack(back, within: precision) else { return nil }
        switch (self, back) {
        case (.array(let a), .array(let b)) where a.count == b.count:
            for (index, (x, y)) in zip(a, b).enumerated() {
                if let inner = x.difference(from: y, within: precision) { return "\(index).\(inner)" }
            }
        case (.dictionary(let a), .dictionary(let b)) where a.count == b.count:
            for (key, x) in a {
                guard let y = b[key] else { return "\(key.debugDescription) is missing" }
                if let inner = x.difference(from: y, within: precision) { return "\(key.debugDescription).\(inner)" }
            }
        default: break
        }
        return ": wrote \(self.description.prefix(300)), read \(back.description.prefix(300))"
    }
}
