/// ISO 8601 date text as this package writes and reads it, for the other modules of the package
/// (the Codable date strategies).
package enum DateText {
    /// `YYYY-MM-DDTHH:MM:SSZ`, with the fraction of a second when there is one, reading back to
    /// exactly `seconds` (since 2001-01-01); `nil` outside the years 1...9999.
    package static func iso8601(seconds: Double) -> String? {
        JSONTag.iso8601(seconds) ?? ISO8601.string(secondsSinceReference: seconds, fraction: true)
    }

    /// The seconds since 2001-01-01 that `YYYY-MM-DDTHH:MM:SS[.fraction]Z` stands for.
    package static func seconds(iso8601 text: String) -> Double? {
        JSONTag.dateSeconds(from: .string(text)).flatMap { $0.isFinite ? $0 : nil }
    }
}
