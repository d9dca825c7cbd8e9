import Foundation
import PlistKit
import PropertyBased
import TestSupport
import Testing

/// The standing differential check of the coders (issue 36): random Codable models, encoded
/// with `PlistEncoder` and `PropertyListEncoder` in binary and XML, each output decoded with
/// `PlistDecoder` and `PropertyListDecoder`. Within a format the four readings must be the same
/// values, or errors of the same case; both encoders succeed, or fail with the same case.
///
/// A model is a `Script`: nested keyed, unkeyed and single-value containers, `superEncoder`,
/// optionals, every integer width, dates (`distantPast`, `distantFuture`, before 1582), data
/// and URLs, containers asked for twice, and decodes that try another type first (`fallback`)
/// or decode as another type (`mismatch`, an error in both). `PLIST_CODABLE_CASES` sets how many
/// models are checked (CI's fuzz step runs more).
@Suite struct CodableDifferentialTests {
    static let cases = ProcessInfo.processInfo.environment["PLIST_CODABLE_CASES"].flatMap { Int($0) } ?? 300

    @Test func plistCodersAgreeWithFoundations() async {
        await propertyCheck(count: Self.cases, input: Generator { rng in ScriptGenerator().model(using: &rng) }) {
            script in
            for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
                Self.check(script, format)
            }
        }
    }

    /// The outcome of an encode or decode: a value's text, or the case of the error.
    enum Outcome: Equatable, CustomStringConvertible {
        case value(String)
        case error(String)

        var description: String {
            switch self {
            case .value(let text): text
            case .error(let name): "error \(name)"
            }
        }

        init(catching body: () throws -> String) {
            do {
                self = .value(try body())
            } catch let error as DecodingError {
                switch error {
                case .typeMismatch: self = .error("typeMismatch")
                case .valueNotFound: self = .error("valueNotFound")
                case .keyNotFound: self = .error("keyNotFound")
                case .dataCorrupted: self = .error("dataCorrupted")
                @unknown default: self = .error("unknown")
                }
            } catch let error as EncodingError {
                switch error {
                case .invalidValue: self = .error("invalidValue")
                @unknown default: self = .error("unknown")
                }
            } catch {
                self = .error("\(type(of: error))")
            }
        }
    }

    static func check(_ script: Script, _ format: PropertyListSerialization.PropertyListFormat) {
        let ours = PlistEncoder()
        ours.outputFormat = format == .binary ? .binary : .xml
        let foundation = PropertyListEncoder()
        foundation.outputFormat = format
        let model = Scripted(script)
        var outputs: [(String, Data)] = []
        var encoded: [String: Outcome] = [:]
        for (name, encode) in [
            ("PlistEncoder", { try ours.encode(model) }), ("PropertyListEncoder", { try foundation.encode(model) }),
        ]
            as [(String, () throws -> Data)]
        {
            encoded[name] = Outcome {
                let data = try encode()
                outputs.append((name, data))
                return "encoded"
            }
        }
        guard encoded["PlistEncoder"] == encoded["PropertyListEncoder"] else {
            Issue.record("\(format): encoders differ for \(script): \(encoded)")
            return
        }
        var readings: [(String, Outcome)] = []
        for (encoder, data) in outputs {
            let ours = Outcome { try PlistDecoder().decode(Scripted.self, from: data, configuration: script).read }
            let theirs = Outcome {
                try PropertyListDecoder().decode(Scripted.self, from: data, configuration: script).read
            }
            guard ours == theirs else {
                Issue.record("\(format): the decoders differ on \(encoder)'s output for \(script):\n\(ours)\n\(theirs)")
                return
            }
            readings.append((encoder, ours))
        }
        // Foundation's binary encoder stores 0.0 and -0.0 as one object (the first it meets),
        // where ours keeps both (docs/COMPATIBILITY.md).
        let compared = readings.map { format == .binary ? $0.1.ignoringTheSignOfZero : $0.1 }
        guard compared.count < 2 || compared[0] == compared[1] else {
            Issue.record(
                "\(format): the encoders' outputs read differently for \(script):\n\(readings[0].1)\n\(readings[1].1)")
            return
        }
    }
}

extension CodableDifferentialTests.Outcome {
    /// The outcome with every zero read as `+0`.
    var ignoringTheSignOfZero: Self {
        guard case .value(let text) = self else { return self }
        return .value(text.replacing("«-0»", with: "«+0»"))
    }
}

// MARK: Models

/// A scalar type the decoding side can ask for.
enum ScalarKind: CaseIterable, Sendable {
    case bool, string, double, float, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, date, data,
        url
}

/// How a model encodes a value and decodes it again.
indirect enum Script: Sendable, CustomStringConvertible {
    case bool(Bool)
    case string(String)
    case double(Double)
    case float(Float)
    case int(Int)
    case int8(Int8)
    case int16(Int16)
    case int32(Int32)
    case int64(Int64)
    case uint(UInt)
    case uint8(UInt8)
    case uint16(UInt16)
    case uint32(UInt32)
    case uint64(UInt64)
    case date(Date)
    case data(Data)
    case url(URL)
    /// `nil` through `encodeNil` / `decodeNil`.
    case null
    /// `encodeIfPresent` / `decodeIfPresent` in a keyed container (`nil` leaves the key out);
    /// in an unkeyed one, `encodeNil` or the value, read back with `decodeNil` first.
    case optional(Script?)
    /// A keyed container; `twice` asks the encoder for it again for the second part.
    case keyed([Entry], again: [Entry]?)
    /// An unkeyed container; `again` asks for it again and appends.
    case unkeyed([Script], again: [Script]?)
    /// A value through `singleValueContainer()`.
    case single(Script)
    /// Decoded by first trying `first` with `try?`, then as the value.
    case fallback(Script, first: ScalarKind)
    /// Decoded as `kind`: an error, or a conversion, in both decoders.
    case mismatch(Script, kind: ScalarKind)

    /// An entry of a keyed container and how it is written.
    struct Entry: Sendable {
        var key: String
        var value: Script
        var way: Way

        enum Way: Sendable {
            /// `encode(_:forKey:)`, or for a container `encode(Scripted)`, and decoding alike.
            case plain
            /// A container through `nestedContainer`/`nestedUnkeyedContainer(forKey:)`; with a
            /// second part, asked for twice under the same key.
            case nested(again: [Entry]?)
            /// Through `superEncoder(forKey:)` (`encode(_:forKey:configuration:)`).
            case superEncoder
            /// Through `superEncoder()` (the key is `super`).
            case superWithoutKey
        }
    }

    var description: String {
        switch self {
        case .bool(let value): "\(value)"
        case .string(let value): value.debugDescription
        case .double(let value): "\(value)"
        case .float(let value): "Float(\(value))"
        case .int(let value): "Int(\(value))"
        case .int8(let value): "Int8(\(value))"
        case .int16(let value): "Int16(\(value))"
        case .int32(let value): "Int32(\(value))"
        case .int64(let value): "Int64(\(value))"
        case .uint(let value): "UInt(\(value))"
        case .uint8(let value): "UInt8(\(value))"
        case .uint16(let value): "UInt16(\(value))"
        case .uint32(let value): "UInt32(\(value))"
        case .uint64(let value): "UInt64(\(value))"
        case .date(let value): "Date(\(value.timeIntervalSinceReferenceDate))"
        case .data(let value): "Data(\(Array(value)))"
        case .url(let value): "URL(\(value))"
        case .null: "null"
        case .optional(let value): "optional(\(value.map(\.description) ?? "none"))"
        case .keyed(let entries, let again):
            "{" + entries.map(\.description).joined(separator: ", ")
                + (again.map { " | again " + $0.map(\.description).joined(separator: ", ") } ?? "") + "}"
        case .unkeyed(let elements, let again):
            "[" + elements.map(\.description).joined(separator: ", ")
                + (again.map { " | again " + $0.map(\.description).joined(separator: ", ") } ?? "") + "]"
        case .single(let value): "single(\(value))"
        case .fallback(let value, let first): "fallback(\(value), first: \(first))"
        case .mismatch(let value, let kind): "mismatch(\(value), as: \(kind))"
        }
    }
}

extension Script.Entry: CustomStringConvertible {
    var description: String {
        switch way {
        case .plain: "\(key): \(value)"
        case .nested(let again):
            "\(key) nested: \(value)"
                + (again.map { " + again {" + $0.map(\.description).joined(separator: ", ") + "}" } ?? "")
        case .superEncoder: "\(key) super: \(value)"
        case .superWithoutKey: "super: \(value)"
        }
    }
}

/// The model: encodes as its script says; decodes with the script as its configuration, and
/// describes what it read (`read`), value by value, so that two decoders can be compared.
struct Scripted: Encodable, DecodableWithConfiguration {
    let script: Script
    var read = ""

    init(_ script: Script) { self.script = script }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    // MARK: Encoding

    func encode(to encoder: any Encoder) throws {
        switch script {
        case .keyed(let entries, let again):
            var container = encoder.container(keyedBy: Key.self)
            try Self.encode(entries, into: &container)
            if let again {
                var second = encoder.container(keyedBy: Key.self)
                try Self.encode(again, into: &second)
            }
        case .unkeyed(let elements, let again):
            var container = encoder.unkeyedContainer()
            for element in elements { try Self.encode(element, into: &container) }
            if let again {
                var second = encoder.unkeyedContainer()
                for element in again { try Self.encode(element, into: &second) }
            }
        case .single(let value):
            var container = encoder.singleValueContainer()
            try container.encode(Scripted(value))
        case .fallback(let value, _), .mismatch(let value, _):
            try Scripted(value).encode(to: encoder)
        case .optional(let value):
            var container = encoder.singleValueContainer()
            if let value { try container.encode(Scripted(value)) } else { try container.encodeNil() }
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        default:
            var container = encoder.singleValueContainer()
            try Self.encodeScalar(script, into: &container)
        }
    }

    private static func encodeScalar(_ script: Script, into container: inout some SingleValueEncodingContainer) throws {
        switch script {
        case .bool(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .float(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .int8(let value): try container.encode(value)
        case .int16(let value): try container.encode(value)
        case .int32(let value): try container.encode(value)
        case .int64(let value): try container.encode(value)
        case .uint(let value): try container.encode(value)
        case .uint8(let value): try container.encode(value)
        case .uint16(let value): try container.encode(value)
        case .uint32(let value): try container.encode(value)
        case .uint64(let value): try container.encode(value)
        case .date(let value): try container.encode(value)
        case .data(let value): try container.encode(value)
        case .url(let value): try container.encode(value)
        default: preconditionFailure("not a scalar")
        }
    }

    private static func encode(_ entries: [Script.Entry], into container: inout KeyedEncodingContainer<Key>) throws {
        for entry in entries {
            let key = Key(entry.key)
            switch (entry.way, entry.value) {
            case (.nested(let again), .keyed(let inner, _)):
                var nested = container.nestedContainer(keyedBy: Key.self, forKey: key)
                try encode(inner, into: &nested)
                if let again {
                    var second = container.nestedContainer(keyedBy: Key.self, forKey: key)
                    try encode(again, into: &second)
                }
            case (.nested(let again), .unkeyed(let elements, _)):
                var nested = container.nestedUnkeyedContainer(forKey: key)
                for element in elements { try encode(element, into: &nested) }
                if again != nil {
                    var second = container.nestedUnkeyedContainer(forKey: key)
                    for element in elements { try encode(element, into: &second) }
                }
            case (.superEncoder, let value):
                try Scripted(value).encode(to: container.superEncoder(forKey: key))
            case (.superWithoutKey, let value):
                try Scripted(value).encode(to: container.superEncoder())
            case (_, .optional(let value)):
                try container.encodeIfPresent(value.map(Scripted.init), forKey: key)
            case (_, .null):
                try container.encodeNil(forKey: key)
            case (_, .bool(let value)): try container.encode(value, forKey: key)
            case (_, .string(let value)): try container.encode(value, forKey: key)
            case (_, .double(let value)): try container.encode(value, forKey: key)
            case (_, .int8(let value)): try container.encode(value, forKey: key)
            case (_, .uint64(let value)): try container.encode(value, forKey: key)
            case (_, .date(let value)): try container.encode(value, forKey: key)
            case (_, .data(let value)): try container.encode(value, forKey: key)
            case (_, let value): try container.encode(Scripted(value), forKey: key)
            }
        }
    }

    private static func encode(_ element: Script, into container: inout any UnkeyedEncodingContainer) throws {
        switch element {
        case .keyed(let inner, nil) where inner.count % 2 == 0:
            var nested = container.nestedContainer(keyedBy: Key.self)
            try encode(inner, into: &nested)
        case .unkeyed(let elements, nil) where elements.count % 2 == 1:
            var nested = container.nestedUnkeyedContainer()
            for element in elements { try encode(element, into: &nested) }
        case .null: try container.encodeNil()
        case .optional(nil): try container.encodeNil()
        case .optional(let value?): try container.encode(Scripted(value))
        case .int32(let value): try container.encode(value)
        case .uint16(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .date(let value): try container.encode(value)
        case .single(let value) where value.isScalar:
            try Scripted(value).encode(to: container.superEncoder())
        default: try container.encode(Scripted(element))
        }
    }

    // MARK: Decoding

    init(from decoder: any Decoder, configuration script: Script) throws {
        self.script = script
        read = try Self.read(script, from: decoder)
    }

    /// What `decoder` holds, read as `script` says.
    private static func read(_ script: Script, from decoder: any Decoder) throws -> String {
        switch script {
        case .keyed(let entries, let again):
            let container = try decoder.container(keyedBy: Key.self)
            var parts = try read(entries, from: container)
            if let again { parts += try read(again, from: try decoder.container(keyedBy: Key.self)) }
            return "{" + parts.joined(separator: ", ") + "}"
        case .unkeyed(let elements, let again):
            var container = try decoder.unkeyedContainer()
            var parts: [String] = []
            for element in elements + (again ?? []) { parts.append(try read(element, from: &container)) }
            parts.append("end \(container.isAtEnd)")
            return "[" + parts.joined(separator: ", ") + "]"
        case .single(let value), .optional(let value?):
            let container = try decoder.singleValueContainer()
            if case .optional = script, container.decodeNil() { return "nil" }
            return try Scripted(from: decoder, configuration: value).read
        case .optional(nil), .null:
            return "nil \(try decoder.singleValueContainer().decodeNil())"
        case .fallback(let value, let first):
            let container = try decoder.singleValueContainer()
            if let text = try? readScalar(first, from: container) { return "first \(text)" }
            return try read(value, from: decoder)
        case .mismatch(_, let kind):
            return try readScalar(kind, from: try decoder.singleValueContainer())
        default:
            return try readScalar(script.kind!, from: try decoder.singleValueContainer())
        }
    }

    private static func readScalar(_ kind: ScalarKind, from container: any SingleValueDecodingContainer) throws
        -> String
    {
        switch kind {
        case .bool: "\(try container.decode(Bool.self))"
        case .string: try container.decode(String.self).debugDescription
        case .double: real(try container.decode(Double.self))
        case .float: "Float " + real(Double(try container.decode(Float.self)))
        case .int: "Int \(try container.decode(Int.self))"
        case .int8: "Int8 \(try container.decode(Int8.self))"
        case .int16: "Int16 \(try container.decode(Int16.self))"
        case .int32: "Int32 \(try container.decode(Int32.self))"
        case .int64: "Int64 \(try container.decode(Int64.self))"
        case .uint: "UInt \(try container.decode(UInt.self))"
        case .uint8: "UInt8 \(try container.decode(UInt8.self))"
        case .uint16: "UInt16 \(try container.decode(UInt16.self))"
        case .uint32: "UInt32 \(try container.decode(UInt32.self))"
        case .uint64: "UInt64 \(try container.decode(UInt64.self))"
        case .date: "Date \(try container.decode(Date.self).timeIntervalSinceReferenceDate.bitPattern)"
        case .data: "Data \(Array(try container.decode(Data.self)))"
        case .url: "URL \(try container.decode(URL.self).absoluteString)"
        }
    }

    /// A real by its bits; a zero as `«-0»` or `«+0»` (`Outcome.ignoringTheSignOfZero`).
    private static func real(_ value: Double) -> String {
        value == 0 ? (value.sign == .minus ? "«-0»" : "«+0»") : "\(value.bitPattern)"
    }

    private static func read(_ entries: [Script.Entry], from container: KeyedDecodingContainer<Key>) throws -> [String]
    {
        var parts: [String] = []
        for entry in entries {
            let key = Key(entry.key)
            let text: String
            switch (entry.way, entry.value) {
            case (.nested(let again), .keyed(let inner, _)):
                text =
                    "{"
                    + (try read(inner + (again ?? []), from: container.nestedContainer(keyedBy: Key.self, forKey: key)))
                    .joined(separator: ", ") + "}"
            case (.nested(let again), .unkeyed(let elements, _)):
                var nested = try container.nestedUnkeyedContainer(forKey: key)
                var items: [String] = []
                for element in elements + (again == nil ? [] : elements) {
                    items.append(try read(element, from: &nested))
                }
                text = "[" + items.joined(separator: ", ") + "]"
            case (.superEncoder, let value):
                text = try container.decode(Scripted.self, forKey: key, configuration: value).read
            case (.superWithoutKey, let value):
                text = try Scripted(from: container.superDecoder(), configuration: value).read
            case (_, .optional(nil)):
                text =
                    "absent \(try container.decodeIfPresent(Int.self, forKey: key) == nil) \(container.contains(key))"
            case (_, .optional(let value?)):
                text = try container.decodeIfPresent(Scripted.self, forKey: key, configuration: value)?.read ?? "nil"
            case (_, .null):
                text = "null \(try container.decodeNil(forKey: key))"
            case (_, .fallback(let value, let first)):
                if let found = try? readScalar(first, from: container.superDecoder(forKey: key).singleValueContainer())
                {
                    text = "first \(found)"
                } else {
                    text = try container.decode(Scripted.self, forKey: key, configuration: value).read
                }
            case (_, let value):
                text = try container.decode(Scripted.self, forKey: key, configuration: value).read
            }
            parts.append("\(entry.key): \(text)")
        }
        return parts
    }

    private static func read(_ element: Script, from container: inout any UnkeyedDecodingContainer) throws -> String {
        switch element {
        case .keyed(let inner, nil) where inner.count % 2 == 0:
            return "{" + (try read(inner, from: container.nestedContainer(keyedBy: Key.self))).joined(separator: ", ")
                + "}"
        case .unkeyed(let elements, nil) where elements.count % 2 == 1:
            var nested = try container.nestedUnkeyedContainer()
            var items: [String] = []
            for element in elements { items.append(try read(element, from: &nested)) }
            return "[" + items.joined(separator: ", ") + "]"
        case .null, .optional(nil):
            return "nil \(try container.decodeNil())"
        case .optional(let value?):
            if try container.decodeNil() { return "nil" }
            return try container.decode(Scripted.self, configuration: value).read
        case .fallback(let value, let first):
            // The issue's pattern: `try?` one type, then the element again as another.
            if let found = try? readUnkeyedScalar(first, from: &container) { return "first \(found)" }
            return try container.decode(Scripted.self, configuration: value).read
        case .int32: return "Int32 \(try container.decode(Int32.self))"
        case .uint16: return "UInt16 \(try container.decode(UInt16.self))"
        case .string: return try container.decode(String.self).debugDescription
        case .single(let value) where value.isScalar:
            return try Scripted(from: container.superDecoder(), configuration: value).read
        default:
            return try container.decode(Scripted.self, configuration: element).read
        }
    }

    private static func readUnkeyedScalar(_ kind: ScalarKind, from container: inout any UnkeyedDecodingContainer) throws
        -> String
    {
        switch kind {
        case .bool: "\(try container.decode(Bool.self))"
        case .string: try container.decode(String.self).debugDescription
        case .int8: "Int8 \(try container.decode(Int8.self))"
        case .int64: "Int64 \(try container.decode(Int64.self))"
        case .uint64: "UInt64 \(try container.decode(UInt64.self))"
        case .double: real(try container.decode(Double.self))
        case .date: "Date \(try container.decode(Date.self).timeIntervalSinceReferenceDate.bitPattern)"
        case .data: "Data \(Array(try container.decode(Data.self)))"
        default: "Int \(try container.decode(Int.self))"
        }
    }
}

extension Script {
    /// The scalar kind of a scalar script.
    var kind: ScalarKind? {
        switch self {
        case .bool: .bool
        case .string: .string
        case .double: .double
        case .float: .float
        case .int: .int
        case .int8: .int8
        case .int16: .int16
        case .int32: .int32
        case .int64: .int64
        case .uint: .uint
        case .uint8: .uint8
        case .uint16: .uint16
        case .uint32: .uint32
        case .uint64: .uint64
        case .date: .date
        case .data: .data
        case .url: .url
        default: nil
        }
    }

    var isScalar: Bool { kind != nil }
}

// MARK: Generating models

struct ScriptGenerator {
    var maxDepth = 4

    /// A model: a container at the top mostly, sometimes a scalar or data (which Foundation's
    /// encoder refuses, or writes, as ours must).
    func model(using rng: inout some RandomNumberGenerator) -> Script {
        switch Int.random(in: 0..<20, using: &rng) {
        case 0: return scalar(using: &rng)
        case 1: return .data(data(using: &rng))
        case 2: return .optional(nil)
        case 3...11: return keyed(depth: 1, using: &rng)
        default: return unkeyed(depth: 1, using: &rng)
        }
    }

    func value(depth: Int, using rng: inout some RandomNumberGenerator) -> Script {
        let containers = depth < maxDepth ? 5 : 0
        let choice = Int.random(in: 0..<(14 + containers), using: &rng)
        switch choice {
        case 0..<8: return scalar(using: &rng)
        case 8: return .null
        case 9: return .optional(Bool.random(using: &rng) ? nil : scalar(using: &rng))
        case 10: return .single(Bool.random(using: &rng) ? scalar(using: &rng) : value(depth: depth + 1, using: &rng))
        case 11, 12:
            // A value decoded by trying another type first; mostly the issue's Int-or-String.
            let value = Bool.random(using: &rng) ? Script.string(string(using: &rng)) : scalar(using: &rng)
            let first = Int.random(in: 0..<3, using: &rng) == 0 ? ScalarKind.allCases.randomElement(using: &rng)! : .int
            return .fallback(value, first: first)
        case 13:
            return .mismatch(scalar(using: &rng), kind: ScalarKind.allCases.randomElement(using: &rng)!)
        case 14, 15, 16: return keyed(depth: depth + 1, using: &rng)
        default: return unkeyed(depth: depth + 1, using: &rng)
        }
    }

    func keyed(depth: Int, using rng: inout some RandomNumberGenerator) -> Script {
        var keys = Set<String>()
        let entries = self.entries(depth: depth, keys: &keys, using: &rng)
        let again = Int.random(in: 0..<5, using: &rng) == 0 ? self.entries(depth: depth, keys: &keys, using: &rng) : nil
        return .keyed(entries, again: again)
    }

    /// Entries with keys not in `keys` (a key set again is another test: the last value wins in
    /// both, but the script would read the first).
    private func entries(depth: Int, keys: inout Set<String>, using rng: inout some RandomNumberGenerator) -> [Script
        .Entry]
    {
        var entries: [Script.Entry] = []
        var usedSuper = keys.contains("super")
        for _ in 0..<Int.random(in: 0...4, using: &rng) {
            var key = Self.keyNames.randomElement(using: &rng)!
            while keys.contains(key) { key += "_" }
            keys.insert(key)
            let value = self.value(depth: depth, using: &rng)
            var way = Script.Entry.Way.plain
            switch (Int.random(in: 0..<6, using: &rng), value) {
            case (0, .keyed), (0, .unkeyed), (1, .keyed), (1, .unkeyed):
                var nestedKeys = Set<String>()
                if case .keyed(let inner, _) = value { nestedKeys = Set(inner.map(\.key)) }
                let again: [Script.Entry]? =
                    Bool.random(using: &rng)
                    ? (value.isKeyed ? self.entries(depth: depth + 1, keys: &nestedKeys, using: &rng) : []) : nil
                way = .nested(again: again)
            case (2, _):
                way = .superEncoder
            case (3, _) where !usedSuper && !keys.contains("super"):
                way = .superWithoutKey
                usedSuper = true
                keys.insert("super")
            default:
                break
            }
            entries.append(Script.Entry(key: key, value: value, way: way))
        }
        return entries
    }

    func unkeyed(depth: Int, using rng: inout some RandomNumberGenerator) -> Script {
        let elements = (0..<Int.random(in: 0...4, using: &rng)).map { _ in value(depth: depth, using: &rng) }
        let again =
            Int.random(in: 0..<5, using: &rng) == 0
            ? (0..<Int.random(in: 1...2, using: &rng)).map { _ in value(depth: depth, using: &rng) } : nil
        return .unkeyed(elements, again: again)
    }

    static let keyNames = ["a", "name", "id", "value", "list", "first", "second", "top", "Date Added", "x1", "émoji"]

    func scalar(using rng: inout some RandomNumberGenerator) -> Script {
        switch Int.random(in: 0..<17, using: &rng) {
        case 0: return .bool(Bool.random(using: &rng))
        case 1: return .string(string(using: &rng))
        case 2: return .double(real(using: &rng))
        case 3: return .float(Float(real(using: &rng)))
        case 4: return .int(integer(using: &rng))
        case 5: return .int8(integer(using: &rng))
        case 6: return .int16(integer(using: &rng))
        case 7: return .int32(integer(using: &rng))
        case 8: return .int64(integer(using: &rng))
        case 9: return .uint(integer(using: &rng))
        case 10: return .uint8(integer(using: &rng))
        case 11: return .uint16(integer(using: &rng))
        case 12: return .uint32(integer(using: &rng))
        case 13: return .uint64(integer(using: &rng))
        case 14: return .date(date(using: &rng))
        case 15: return .data(data(using: &rng))
        default: return .url(Self.urls.randomElement(using: &rng)!)
        }
    }

    func integer<I: FixedWidthInteger>(using rng: inout some RandomNumberGenerator) -> I {
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: return .min
        case 1: return .max
        case 2: return I(truncatingIfNeeded: Int.random(in: -2...300, using: &rng))
        default: return I.random(in: .min ... .max, using: &rng)
        }
    }

    func real(using rng: inout some RandomNumberGenerator) -> Double {
        [
            0.0, -0.0, 1.5, -2.25, 0.1, 1e300, -1e-300, .infinity, -.infinity, .nan, 3.0,
            Double(Float.greatestFiniteMagnitude) * 2,
        ]
        .randomElement(using: &rng)!
    }

    /// Dates from `Date.distantPast` to the end of 9999, with the sentinels and dates around the
    /// Gregorian reform drawn often, whole seconds and not.
    func date(using rng: inout some RandomNumberGenerator) -> Date {
        let seconds: Double
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: seconds = Date.distantPast.timeIntervalSinceReferenceDate
        case 1: seconds = Date.distantFuture.timeIntervalSinceReferenceDate
        case 2: seconds = -13_197_600_000 + Double(Int.random(in: -200_000...200_000, using: &rng))
        case 3: seconds = Double.random(in: -63_114_076_800 ..< -13_197_600_000, using: &rng).rounded(.down)
        case 4: seconds = Double.random(in: -63_114_076_800..<252_423_993_600, using: &rng)
        default: seconds = Double(Int.random(in: -1_000_000_000...1_000_000_000, using: &rng))
        }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    func data(using rng: inout some RandomNumberGenerator) -> Data {
        Data((0..<Int.random(in: 0...40, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) })
    }

    func string(using rng: inout some RandomNumberGenerator) -> String {
        switch Int.random(in: 0..<8, using: &rng) {
        case 0: return ""
        case 1: return "$null"
        case 2: return String(Int.random(in: -1000...1000, using: &rng))
        case 3: return ["YES", "true", "1.5", "https://example.com/x"].randomElement(using: &rng)!
        case 4: return "caf\u{E9} \u{1F600} &<>"
        default:
            return String(
                (0..<Int.random(in: 1...12, using: &rng)).map { _ in "abcdefXYZ 0-_.".randomElement(using: &rng)! })
        }
    }

    static let urls = [
        URL(string: "https://example.com/a?b=c")!, URL(string: "file:///tmp/x")!,
        URL(string: "c/d", relativeTo: URL(string: "https://example.com/")!)!,
    ]
}

extension Script {
    var isKeyed: Bool {
        if case .keyed = self { return true }
        return false
    }
}
