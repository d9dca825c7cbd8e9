#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Plist: CustomStringConvertible {
    /// The value in Swift literal syntax: `["name": "James", "kids": ["Nicolas"], "age": 40]`;
    /// dates as ISO 8601 (`2001-01-01T00:00:00Z`), data as hex (`<0fbd7777>`, long data
    /// shortened), UIDs as `UID(5)`.
    public var description: String {
        var text = ""
        describe(into: &text)
        return text
    }

    private func describe(into text: inout String) {
        switch self {
        case .string(let value):
            text += value.debugDescription
        case .integer(let value):
            text += value.description
        case .real(let value):
            text += value.description
        case .bool(let value):
            text += value ? "true" : "false"
        case .date(let value):
            let seconds = value.timeIntervalSinceReferenceDate
            text += ISO8601.string(secondsSinceReference: seconds, fraction: true) ?? "Date(\(seconds))"
        case .data(let value):
            text += "<"
            for byte in value.prefix(32) {
                text += byte < 0x10 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
            }
            text += value.count > 32 ? "… (\(value.count) bytes)>" : ">"
        case .uid(let value):
            text += "UID(\(value))"
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += ", " }
                element.describe(into: &text)
            }
            text += "]"
        case .dictionary(let entries):
            guard !entries.isEmpty else {
                text += "[:]"
                return
            }
            text += "["
            for (index, (key, element)) in entries.enumerated() {
                if index > 0 { text += ", " }
                text += key.debugDescription + ": "
                element.describe(into: &text)
            }
            text += "]"
        }
    }
}
