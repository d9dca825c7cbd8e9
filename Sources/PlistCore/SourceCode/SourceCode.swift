#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Property lists as Swift and Objective-C source code, as plutil's `-convert swift` and
/// `-convert objc` write them: a constant named after the file, holding a literal of the value.
///
/// Swift: `let Name: [String: Any] = [...]` (or `[Any]`, or the scalar's type), every nested
/// container annotated (`as [String: Any]`) so that the type checker stays fast, numbers exact
/// (`0.1`, not plutil's `0.100000`; integers above `Int64.max` as `UInt64(...)`; `Double.nan`,
/// `Double.infinity`), dates as `Date(timeIntervalSinceReferenceDate: ...)`, data as
/// `Data([0x01, ...])` (or base64 for large data), UIDs as their number. It compiles as it is
/// with `import Foundation`, which it starts with.
///
/// Objective-C: `NSDictionary * const Name = @{...};` with `@"..."`, `@12`, `@0.5`, `@YES` and
/// nested `@[...]`/`@{...}` literals (constant literals, as clang compiles them for plutil's
/// output), and a header declaring `extern NSDictionary * const Name;`. Objective-C literals have
/// no dates, data or UIDs: those are an error naming the key path, as in plutil.
enum SourceCode {
    /// A valid Swift and Objective-C identifier made from a file name: its name without the
    /// extension, other characters than letters, digits and `_` made `_`, `_` in front of a digit.
    static func identifier(fromFileName fileName: String) -> String {
        let name = fileName.split(separator: "/").last.map(String.init) ?? fileName
        let stem = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : name[..<$0] } ?? name[...]
        var identifier = String(stem.unicodeScalars.map { $0.isASCIIIdentifierCharacter ? Character($0) : "_" })
        if identifier.isEmpty || identifier.first!.isNumber { identifier = "_" + identifier }
        return identifier
    }

    // MARK: Swift

    static func swift(_ value: Plist, name: String, fileName: String, options: PlistWriteOptions) throws(PlistError)
        -> [UInt8]
    {
        var text = try TextOutput(for: value, indentation: 4, options: options)
        text += "/// Generated from \(fileName) by plistconv.\nimport Foundation\n\n"
        text += "let \(name): \(swiftType(of: value)) = "
        var path: [String] = []
        try appendSwift(value, indent: "", path: &path, to: &text)
        text += "\n"
        return text.bytes
    }

    private static func swiftType(of value: Plist) -> String {
        switch value {
        case .string: "String"
        case .integer(let integer): integer.int64 == nil ? "UInt64" : "Int"
        case .real: "Double"
        case .bool: "Bool"
        case .date: "Date"
        case .data: "Data"
        case .uid: "UInt64"
        case .array: "[Any]"
        case .dictionary: "[String: Any]"
        }
    }

    private static func appendSwift(_ value: Plist, indent: String, path: inout [String], to text: inout TextOutput)
        throws(PlistError)
    {
        try check(value, depth: path.count, indent: indent, in: text)
        let inner = indent + "    "
        switch value {
        case .string(let string): text += String.swiftLiteral(string)
        case .integer(let integer): text += integer.int64 == nil ? "UInt64(\(integer))" : integer.description
        case .real(let real): text += swiftDouble(real)
        case .bool(let bool): text += bool ? "true" : "false"
        case .date(let date):
            text += "Date(timeIntervalSinceReferenceDate: \(swiftDouble(date.timeIntervalSinceReferenceDate)))"
        case .data(let data):
            if data.count > 4096 {
                text += "Data(base64Encoded: \"\(data.base64EncodedString())\")!"
            } else {
                text += "Data([" + data.map { "0x" + hex($0) }.joined(separator: ", ") + "])"
            }
        case .uid(let uid): text += "UInt64(\(uid))"
        case .array(let elements):
            guard !elements.isEmpty else {
                text += "[]"
                return
            }
            text += "[\n"
            for (index, element) in elements.enumerated() {
                text += inner
                path.append(String(index))
                try appendSwift(element, indent: inner, path: &path, to: &text)
                path.removeLast()
                text += nestedAnnotation(element) + ",\n"
            }
            text += indent + "]"
        case .dictionary(let entries):
            guard !entries.isEmpty else {
                text += "[:]"
                return
            }
            try checkSwiftKeys(entries, path)
            text += "[\n"
            for (key, element) in entries {
                text += inner + String.swiftLiteral(key) + ": "
                path.append(key)
                try appendSwift(element, indent: inner, path: &path, to: &text)
                path.removeLast()
                text += nestedAnnotation(element) + ",\n"
            }
            text += indent + "]"
        }
    }

    /// Refuses keys that Swift's `String` calls equal (canonically equivalent spellings, which a
    /// property list keeps apart): a dictionary literal holding both traps when it runs.
    private static func checkSwiftKeys(_ entries: PlistDictionary, _ path: [String]) throws(PlistError) {
        guard !entries.keyStorage.isASCII else { return }
        var seen: [String: String] = [:]
        for key in entries.keys {
            if let first = seen.updateValue(key, forKey: key) {
                throw PlistError(
                    .unrepresentable(
                        keyPath: PlistKeyPath(components: path + [key]).description,
                        type: "key canonically equivalent to \(first.debugDescription)",
                        format: "a Swift dictionary literal"),
                    at: 0)
            }
        }
    }

    private static func nestedAnnotation(_ value: Plist) -> String {
        switch value {
        case .array: " as [Any]"
        case .dictionary: " as [String: Any]"
        default: ""
        }
    }

    private static func swiftDouble(_ real: Double) -> String {
        if real.isNaN { return "Double.nan" }
        if real.isInfinite { return real < 0 ? "-Double.infinity" : "Double.infinity" }
        let text = real.description
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }

    // MARK: Objective-C

    static func objc(_ value: Plist, name: String, fileName: String, options: PlistWriteOptions) throws(PlistError)
        -> [UInt8]
    {
        var text = try TextOutput(for: value, indentation: 4, options: options)
        text += "/// Generated from \(fileName) by plistconv.\n#import <Foundation/Foundation.h>\n\n"
        text += "\(objcType(of: value)) const \(name) = "
        var path: [String] = []
        try appendObjC(value, indent: "", path: &path, to: &text)
        text += ";\n"
        return text.bytes
    }

    static func objcHeader(_ value: Plist, name: String, fileName: String) -> [UInt8] {
        Array(
            "/// Generated from \(fileName) by plistconv.\n#import <Foundation/Foundation.h>\n\nextern \(objcType(of: value)) const \(name);\n"
                .utf8)
    }

    private static func objcType(of value: Plist) -> String {
        switch value {
        case .string: "NSString *"
        case .array: "NSArray *"
        case .dictionary: "NSDictionary *"
        default: "NSNumber *"
        }
    }

    private static func appendObjC(
        _ value: Plist, indent: String, path: inout [String], to text: inout TextOutput
    ) throws(PlistError) {
        try check(value, depth: path.count, indent: indent, in: text)
        let inner = indent + "    "
        switch value {
        case .string(let string): text += "@" + objcString(string)
        case .integer(let integer): text += "@" + integer.description + (integer.int64 == nil ? "ULL" : "")
        case .real(let real):
            guard real.isFinite else { throw unrepresentable(value, path) }
            let digits = real.description
            text += "@" + (digits.contains(".") || digits.contains("e") ? digits : digits + ".0")
        case .bool(let bool): text += bool ? "@YES" : "@NO"
        case .date, .data, .uid: throw unrepresentable(value, path)
        case .array(let elements):
            text += "@[\n"
            for (index, element) in elements.enumerated() {
                text += inner
                path.append(String(index))
                try appendObjC(element, indent: inner, path: &path, to: &text)
                path.removeLast()
                text += ",\n"
            }
            text += indent + "]"
        case .dictionary(let entries):
            text += "@{\n"
            for (key, element) in entries {
                text += inner + "@" + objcString(key) + " : "
                path.append(key)
                try appendObjC(element, indent: inner, path: &path, to: &text)
                path.removeLast()
                text += ",\n"
            }
            text += indent + "}"
        }
    }

    private static func unrepresentable(_ value: Plist, _ path: [String]) -> PlistError {
        let keyPath = PlistKeyPath(components: path).description
        return PlistError(
            .unrepresentable(keyPath: keyPath, type: value.typeName, format: "an Objective-C literal"), at: 0)
    }

    /// A C string literal's body in quotes: UTF-8 kept, `\\`, `"`, `?` (trigraphs) and control
    /// characters escaped.
    private static func objcString(_ string: String) -> String {
        var text = "\""
        for scalar in string.unicodeScalars {
            switch scalar.value {
            case 0x5C: text += "\\\\"
            case 0x22: text += "\\\""
            case 0x3F: text += "\\?"
            case 0x0A: text += "\\n"
            case 0x09: text += "\\t"
            case 0x0D: text += "\\r"
            case 0x00..<0x20, 0x7F: text += "\\" + String(scalar.value, radix: 8).leftPadded(to: 3)
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }

    /// Throws `.tooDeep` for a container inside `depth` others past the depth limit, and
    /// `.outputTooLarge` unless `value` at least (its text, or a bracket) fits after `text`.
    private static func check(_ value: Plist, depth: Int, indent: String, in text: TextOutput) throws(PlistError) {
        let size: Int
        switch value {
        case .string(let string): size = string.utf8.count + 2
        case .data(let data): size = data.count / 3 * 4
        case .array, .dictionary:
            try text.enter(depth: depth)
            size = 2
        default: size = 1
        }
        try text.reserve(indent.utf8.count + size)
    }

    private static func hex(_ byte: UInt8) -> String {
        byte < 0x10 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIIIdentifierCharacter: Bool {
        switch value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F: true
        default: false
        }
    }
}

extension String {
    /// The string as a Swift string literal: in double quotes, with quotes, backslashes and
    /// control characters escaped (`\n`, `\0`, `\u{1b}`). Also how `plistconv print` and
    /// `diff` show a string, on one line.
    package static func swiftLiteral(_ string: String) -> String {
        var text = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\\": text += "\\\\"
            case "\"": text += "\\\""
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\0": text += "\\0"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                text += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }

    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
