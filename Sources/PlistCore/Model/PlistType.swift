/// The type of a property-list value, without the value: what `plutil -type` answers, and what
/// ``BinaryPlistFile/type(at:)`` reads without reading what a container holds.
public enum PlistType: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case dictionary, array, string, integer
    /// A real; `float` is plutil's name for it.
    case real = "float"
    case bool, date, data
    /// A keyed archive's object reference (binary only).
    case uid

    /// plutil's name for the type: `dictionary`, `array`, `string`, `integer`, `float`, `bool`,
    /// `date`, `data` (and `uid`).
    public var description: String { rawValue }
}

extension Plist {
    /// The value's type.
    public var type: PlistType {
        switch self {
        case .dictionary: .dictionary
        case .array: .array
        case .string: .string
        case .integer: .integer
        case .real: .real
        case .bool: .bool
        case .date: .date
        case .data: .data
        case .uid: .uid
        }
    }

    /// plutil's name for the value's type, for messages.
    package var typeName: String { type.rawValue }
}
