import Foundation
public import PlistCore

/// Reads the oracle's typed JSON (`../shared/tools/plist_oracle.py`) into a `Plist`, keeping
/// dictionary keys in file order: `{"dict": {...}}`, `{"array": [...]}`, `{"string": ...}`,
/// `{"int": "-12"}`, `{"real": "1.5"}`, `{"bool": true}`, `{"date": ..., "abs": "0.0"}`,
/// `{"data": "<base64>"}`, `{"uid": 5}`.
public enum OracleJSON {
    public struct Malformed: Error, CustomStringConvertible {
        public var description: String
    }

    public static func plist(from bytes: [UInt8]) throws -> Plist {
        var parser = JSONParser(bytes: bytes)
        let json = try parser.parseDocument()
        return try plist(from: json)
    }

    static func plist(from json: JSON) throws -> Plist {
        guard case .object(let wrapper) = json, let (type, payload) = wrapper.first else {
            throw Malformed(description: "not a typed value: \(json)")
        }
        switch (type, payload) {
        case ("dict", .object(let members)):
            var entries = PlistDictionary()
            for (key, value) in members { entries[key] = try plist(from: value) }
            return .dictionary(entries)
        case ("array", .array(let elements)):
            return .array(try elements.map(plist(from:)))
        case ("string", .string(let text)):
            return .string(text)
        case ("int", .string(let text)):
            if let value = Int64(text) { return Plist(value) }
            if let value = UInt64(text) { return Plist(value) }
        case ("real", .string(let text)):
            if let value = Double(text) { return .real(value) }
        case ("bool", .bool(let value)):
            return .bool(value)
        case ("date", _):
            if case .string(let text)? = wrapper.first(where: { $0.key == "abs" })?.value, let seconds = Double(text) {
                return .date(Date(timeIntervalSinceReferenceDate: seconds))
            }
        case ("data", .string(let base64)):
            if let data = Data(base64Encoded: base64) { return .data(data) }
        case ("uid", .number(let text)):
            if let value = UInt64(text) { return .uid(value) }
        default:
            break
        }
        throw Malformed(description: "unreadable typed value \(type): \(payload)")
    }
}

/// JSON with object members in document order, every member kept (keys spelled differently are
/// different keys, however Swift compares them as strings).
enum JSON {
    case object([(key: String, value: JSON)])
    case array([JSON])
    case string(String)
    case number(String)
    case bool(Bool)
    case null
}

/// A small strict JSON parser (RFC 8259) for the oracle's files.
struct JSONParser {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func parseDocument() throws -> JSON {
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw fail("junk after the value") }
        return value
    }

    private func fail(_ message: String) -> OracleJSON.Malformed {
        OracleJSON.Malformed(description: "JSON byte \(index): \(message)")
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    private mutating func expect(_ literal: String) throws {
        for byte in literal.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw fail("expected \(literal)") }
            index += 1
        }
    }

    private mutating func parseValue() throws -> JSON {
        skipWhitespace()
        guard index < bytes.count else { throw fail("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            var members: [(key: String, value: JSON)] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                let key = try parseString()
                skipWhitespace()
                try expect(":")
                members.append((key, try parseValue()))
                skipWhitespace()
                guard index < bytes.count else { throw fail("unterminated object") }
                index += 1
                if bytes[index - 1] == UInt8(ascii: "}") { return .object(members) }
                guard bytes[index - 1] == UInt8(ascii: ",") else { throw fail("expected , or }") }
            }
        case UInt8(ascii: "["):
            index += 1
            var elements: [JSON] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                elements.append(try parseValue())
                skipWhitespace()
                guard index < bytes.count else { throw fail("unterminated array") }
                index += 1
                if bytes[index - 1] == UInt8(ascii: "]") { return .array(elements) }
                guard bytes[index - 1] == UInt8(ascii: ",") else { throw fail("expected , or ]") }
            }
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "t"):
            try expect("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expect("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expect("null")
            return .null
        default:
            let start = index
            while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
            guard index > start else { throw fail("unexpected character") }
            return .number(String(decoding: bytes[start..<index], as: UTF8.self))
        }
    }

    private mutating func parseString() throws -> String {
        try expect("\"")
        var units: [UInt16] = []
        var utf8: [UInt8] = []
        func flushUTF8() {
            units.append(contentsOf: String(decoding: utf8, as: UTF8.self).utf16)
            utf8.removeAll()
        }
        while true {
            guard index < bytes.count else { throw fail("unterminated string") }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                flushUTF8()
                return String(decoding: units, as: UTF16.self)
            case UInt8(ascii: "\\"):
                flushUTF8()
                guard index < bytes.count else { throw fail("unterminated escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "u"):
                    guard index + 4 <= bytes.count,
                        let unit = UInt16(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
                    else { throw fail("bad \\u escape") }
                    units.append(unit)
                    index += 4
                case UInt8(ascii: "n"): units.append(0x0A)
                case UInt8(ascii: "t"): units.append(0x09)
                case UInt8(ascii: "r"): units.append(0x0D)
                case UInt8(ascii: "b"): units.append(0x08)
                case UInt8(ascii: "f"): units.append(0x0C)
                case UInt8(ascii: "/"), UInt8(ascii: "\\"), UInt8(ascii: "\""): units.append(UInt16(escape))
                default: throw fail("bad escape")
                }
            default:
                utf8.append(byte)
            }
        }
    }
}
