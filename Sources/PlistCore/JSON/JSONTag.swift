/// The one-key objects that carry in JSON what JSON has no type for, in `JSONValues.typed`:
/// `{"$date": "2001-01-01T00:00:00Z"}` (or seconds since 2001 as a number, when no ISO 8601 text
/// reads back to exactly the same date, or `"nan"`, `"inf"`, `"-inf"`), `{"$data": "base64"}`,
/// `{"$uid": 5}`, `{"$real": "nan" | "inf" | "-inf"}`, and `{"$dict": {...}}`: a dictionary taken
/// as it is, which the writer uses for a real dictionary whose first key is one of these five
/// (the reader takes an object for a typed value only when its first key is a tag).
enum JSONTag: String {
    case date = "$date"
    case data = "$data"
    case uid = "$uid"
    case real = "$real"
    case dictionary = "$dict"

    static let nonFinite: [String: Double] = ["nan": .nan, "inf": .infinity, "-inf": -.infinity]

    /// `nan`, `inf` or `-inf`.
    static func name(ofNonFinite real: Double) -> String {
        real.isNaN ? "nan" : real < 0 ? "-inf" : "inf"
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` (with the fraction of a second when there is one) that reads back
    /// to exactly `seconds`, or `nil` when there is none.
    static func iso8601(_ seconds: Double) -> String? {
        // -0.0 would read back as 0.0.
        guard !(seconds == 0 && seconds.sign == .minus), let text = GNUstepDate.text(for: seconds) else { return nil }
        // "2001-01-01 00:00:00.5 +0000" -> "2001-01-01T00:00:00.5Z"
        return String(text.dropLast(6)).replacing(" ", with: "T") + "Z"
    }

    /// The seconds since 2001 a `$date` holds: ISO 8601 text as `iso8601` writes it, a number,
    /// or the name of a non-finite number.
    static func dateSeconds(from content: Plist) -> Double? {
        switch content {
        case .integer(let integer): return integer.int64.map(Double.init)
        case .real(let real): return real
        case .string(let text):
            if let real = nonFinite[text] { return real }
            guard text.utf8.count >= 20, text.utf8[text.utf8.index(text.utf8.startIndex, offsetBy: 10)] == 0x54,
                text.utf8.last == 0x5A
            else { return nil }
            return GNUstepDate.seconds(
                from: Array(String(text.dropLast()).replacing("T", with: " ").utf8) + Array(" +0000".utf8))
        default: return nil
        }
    }
}
