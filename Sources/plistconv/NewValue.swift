import ArgumentParser
import PlistKit

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The value an edit puts in, given as plutil gives it: exactly one of `-bool YES`,
/// `-integer 5`, `-float 1.5`, `-string text`, `-date 2026-01-01T00:00:00Z`, `-data BASE64`,
/// `-xml '<dict>...</dict>'`, `-json '{...}'`, `-array`, `-dictionary` (the last two empty).
struct NewValue: ParsableArguments {
    @Option(
        name: .valueType("bool"), help: ArgumentHelp("A Boolean: YES, NO, true, false, 1 or 0.", valueName: "value"))
    var bool: String?

    @Option(name: .valueType("integer"), parsing: .unconditional, help: ArgumentHelp("An integer.", valueName: "value"))
    var integer: String?

    @Option(
        name: .valueType("float"), parsing: .unconditional, help: ArgumentHelp("A real number.", valueName: "value"))
    var float: String?

    @Option(name: .valueType("string"), parsing: .unconditional, help: ArgumentHelp("A string.", valueName: "value"))
    var string: String?

    @Option(
        name: .valueType("date"), help: ArgumentHelp("A date in ISO 8601 (2026-01-01T00:00:00Z).", valueName: "value"))
    var date: String?

    @Option(name: .valueType("data"), help: ArgumentHelp("Bytes in base64.", valueName: "value"))
    var data: String?

    @Option(
        name: .valueType("xml"), parsing: .unconditional,
        help: ArgumentHelp("A value written in XML.", valueName: "value")
    )
    var xml: String?

    @Option(
        name: .valueType("json"), parsing: .unconditional,
        help: ArgumentHelp("A value written in JSON.", valueName: "value"))
    var json: String?

    @Flag(name: .valueType("array"), help: "An empty array.")
    var array = false

    @Flag(name: .valueType("dictionary"), help: "An empty dictionary.")
    var dictionary = false

    func validate() throws {
        let given =
            [bool, integer, float, string, date, data, xml, json].compactMap { $0 }.count
            + (array ? 1 : 0) + (dictionary ? 1 : 0)
        guard given == 1 else {
            throw ValidationError(
                "give exactly one value: -bool, -integer, -float, -string, -date, -data, -xml, -json, -array or -dictionary"
            )
        }
    }

    /// The value given.
    /// - Throws: `PlistError` with `.invalidValue` when the text is not a value of its type.
    func plist() throws(PlistError) -> Plist {
        if let bool {
            switch bool.lowercased() {
            case "yes", "true", "1": return .bool(true)
            case "no", "false", "0": return .bool(false)
            default: throw invalid("bool", bool)
            }
        }
        if let integer {
            if let value = Int64(integer) { return .integer(PlistInteger(value)) }
            if let value = UInt64(integer) { return .integer(PlistInteger(value)) }
            throw invalid("integer", integer)
        }
        if let float {
            guard let value = Double(float) else { throw invalid("float", float) }
            return .real(value)
        }
        if let string { return .string(string) }
        if let date {
            // The XML reader's date parser is the one plutil's -date follows.
            guard let value = Plist.date(xmlText: date) else { throw invalid("date", date) }
            return value
        }
        if let data {
            guard let bytes = Data(base64Encoded: data) else { throw invalid("data", data) }
            return .data(bytes)
        }
        if let xml { return try Plist(xml: Array(xml.utf8)) }
        if let json { return try Plist(json: Array(json.utf8)) }
        return array ? .array([]) : .dictionary([:])
    }

    private func invalid(_ type: String, _ text: String) -> PlistError {
        PlistError(.invalidValue(element: type, text: text), at: 0)
    }
}
