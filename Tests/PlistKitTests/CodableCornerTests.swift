import Foundation
import PlistKit
import TestSupport
import Testing

/// The corners where `PlistEncoder` and `PlistDecoder` once parted from Foundation's coders
/// (issue 36), each compared with `PropertyListEncoder` and `PropertyListDecoder` in this process.
@Suite struct CodableCornerTests {
    static let formats: [(PlistFormat, PropertyListSerialization.PropertyListFormat)] = [
        (.binary, .binary), (.xml, .xml),
    ]

    private static func encoders(_ format: (PlistFormat, PropertyListSerialization.PropertyListFormat))
        -> (PlistEncoder, PropertyListEncoder)
    {
        let ours = PlistEncoder()
        ours.outputFormat = format.0
        let foundation = PropertyListEncoder()
        foundation.outputFormat = format.1
        return (ours, foundation)
    }

    // MARK: Containers asked for twice

    /// The issue's example: two keyed containers under one key write into one dictionary.
    private struct TwoNestedUnderOneKey: Codable, Equatable {
        var first: String
        var second: String

        enum Top: String, CodingKey { case top }
        enum A: String, CodingKey { case first }
        enum B: String, CodingKey { case second }

        init(first: String, second: String) {
            self.first = first
            self.second = second
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Top.self)
            var a = container.nestedContainer(keyedBy: A.self, forKey: .top)
            try a.encode(first, forKey: .first)
            var b = container.nestedContainer(keyedBy: B.self, forKey: .top)
            try b.encode(second, forKey: .second)
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Top.self)
            first = try container.nestedContainer(keyedBy: A.self, forKey: .top).decode(String.self, forKey: .first)
            second = try container.nestedContainer(keyedBy: B.self, forKey: .top).decode(String.self, forKey: .second)
        }
    }

    /// Every way of asking for the container a value already has: the encoder's own container
    /// twice (keyed and unkeyed), a nested unkeyed container twice, a nested container where a
    /// value of its kind was encoded, and a single value that encoded a dictionary.
    private struct AskedAgain: Encodable {
        enum Key: String, CodingKey { case list, object, single, nested }
        struct Inner: Encodable {
            func encode(to encoder: any Encoder) throws {
                var first = encoder.container(keyedBy: Key.self)
                try first.encode(1, forKey: .list)
                var second = encoder.container(keyedBy: Key.self)
                try second.encode(2, forKey: .object)
            }
        }
        struct List: Encodable {
            func encode(to encoder: any Encoder) throws {
                var first = encoder.unkeyedContainer()
                try first.encode("a")
                var second = encoder.unkeyedContainer()
                try second.encode("b")
                try first.encode("c")
            }
        }
        struct Single: Encodable {
            func encode(to encoder: any Encoder) throws {
                var single = encoder.singleValueContainer()
                try single.encode(["x": 1])
                var keyed = encoder.container(keyedBy: Key.self)
                try keyed.encode(2, forKey: .single)
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode(1)
            var again = container.nestedUnkeyedContainer(forKey: .list)
            try again.encode(2)
            try container.encode(Inner(), forKey: .object)
            var object = container.nestedContainer(keyedBy: Key.self, forKey: .object)
            try object.encode(List(), forKey: .nested)
            try container.encode(Single(), forKey: .single)
            try container.encode([7], forKey: .nested)
            var nested = container.nestedUnkeyedContainer(forKey: .nested)
            try nested.encode(8)
        }
    }

    @Test(arguments: formats)
    func containersAskedForAgainAreTheSameContainer(format: (PlistFormat, PropertyListSerialization.PropertyListFormat))
        throws
    {
        let (ours, foundation) = Self.encoders(format)
        let value = TwoNestedUnderOneKey(first: "Johnny Appleseed", second: "appleseed@apple.com")
        let ourBytes = try ours.encode(value)
        let foundationBytes = try foundation.encode(value)
        #expect(try Plist(bytes: [UInt8](ourBytes)) == Plist(bytes: [UInt8](foundationBytes)))
        #expect(
            try Plist(bytes: [UInt8](ourBytes)) == [
                "top": ["first": "Johnny Appleseed", "second": "appleseed@apple.com"]
            ])
        #expect(try PropertyListDecoder().decode(TwoNestedUnderOneKey.self, from: ourBytes) == value)
        #expect(try PlistDecoder().decode(TwoNestedUnderOneKey.self, from: foundationBytes) == value)

        let again = try Plist(bytes: [UInt8](try ours.encode(AskedAgain())))
        #expect(again == (try Plist(bytes: [UInt8](try foundation.encode(AskedAgain())))))
        #expect(
            again == [
                "list": [1, 2], "object": ["list": 1, "object": 2, "nested": ["a", "b", "c"]],
                "single": ["x": 1, "single": 2], "nested": [7, 8],
            ])
    }

    /// A container of another kind where one was encoded: Foundation's encoder stops the
    /// process (a precondition); ours throws, naming the place, and writes nothing.
    private struct AsksForAnotherKind: Encodable {
        let request: Int
        enum Key: String, CodingKey { case top, first }

        func encode(to encoder: any Encoder) throws {
            switch request {
            case 0:
                var container = encoder.container(keyedBy: Key.self)
                var keyed = container.nestedContainer(keyedBy: Key.self, forKey: .top)
                try keyed.encode("Johnny Appleseed", forKey: .first)
                var list = container.nestedUnkeyedContainer(forKey: .top)
                try list.encode("appleseed@apple.com")
            case 1:
                var container = encoder.container(keyedBy: Key.self)
                try container.encode("value", forKey: .top)
                _ = container.nestedContainer(keyedBy: Key.self, forKey: .top)
            case 2:
                _ = encoder.container(keyedBy: Key.self)
                _ = encoder.unkeyedContainer()
            case 3:
                var single = encoder.singleValueContainer()
                try single.encode(1)
                try single.encode(2)
            default:
                var single = encoder.singleValueContainer()
                try single.encode(1)
                _ = encoder.container(keyedBy: Key.self)
            }
        }
    }

    @Test(arguments: 0..<5)
    func aContainerOfAnotherKindIsRefused(request: Int) throws {
        for format in [PlistFormat.binary, .xml] {
            let encoder = PlistEncoder()
            encoder.outputFormat = format
            let error = try #require(throws: EncodingError.self) {
                try encoder.encode(["value": AsksForAnotherKind(request: request)])
            }
            guard case .invalidValue(_, let context) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(context.debugDescription.contains("Foundation's encoder stops the process"))
            #expect(context.codingPath.first?.stringValue == "value")
        }
    }

    @Test func foundationStopsTheProcessThere() async {
        await #expect(processExitsWith: .failure) {
            struct Conflict: Encodable {
                enum Key: String, CodingKey { case top, first }
                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: Key.self)
                    var keyed = container.nestedContainer(keyedBy: Key.self, forKey: .top)
                    try keyed.encode("Johnny Appleseed", forKey: .first)
                    _ = container.nestedUnkeyedContainer(forKey: .top)
                }
            }
            _ = try? PropertyListEncoder().encode(Conflict())
        }
    }

    // MARK: Decoding with a fallback

    /// `try? decode(Int.self)`, then the same element as a string: a failed decode does not
    /// move past the element, in an unkeyed container or through a nested one.
    private struct IntOrString: Decodable, Equatable {
        var values: [String]

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            values = []
            while !container.isAtEnd {
                if let number = try? container.decode(Int.self) {
                    values.append("int \(number)")
                } else if let nested = try? container.nestedContainer(keyedBy: AnyKey.self) {
                    values.append("dict \(nested.allKeys.map(\.stringValue).sorted())")
                } else if var list = try? container.nestedUnkeyedContainer() {
                    values.append("array \(try list.decode(String.self))")
                } else if try container.decodeNil() {
                    values.append("nil")
                } else {
                    values.append("string \(try container.decode(String.self))")
                }
            }
            _ = try? container.decode(String.self)  // at the end: fails, and stays at the end
            values.append("index \(container.currentIndex)")
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    @Test(arguments: formats)
    func aFailedDecodeDoesNotMovePastTheElement(format: (PlistFormat, PropertyListSerialization.PropertyListFormat))
        throws
    {
        let (_, foundation) = Self.encoders(format)
        // "12" stays a string, as in Foundation: strings are read as numbers only in formats
        // without numbers (OpenStep).
        let payload: Plist = ["foo", 3, ["k": 1], ["bar"], "$null", "12"]
        let data = try Data(payload.bytes(format: format.0))
        let ours = try PlistDecoder().decode(IntOrString.self, from: data)
        #expect(ours == (try PropertyListDecoder().decode(IntOrString.self, from: data)))
        #expect(ours.values == ["string foo", "int 3", "dict [\"k\"]", "array bar", "nil", "string 12", "index 6"])
        #expect(
            try PlistDecoder().decode(IntOrString.self, from: try foundation.encode(["foo"])).values == [
                "string foo", "index 1",
            ])
    }

    // MARK: The type passed in

    private class Person: Codable {
        var name: String
        init(name: String) { self.name = name }
    }

    private final class Employee: Person {
        var employer: String
        init(name: String, employer: String) {
            self.employer = employer
            super.init(name: name)
        }
        private enum CodingKeys: String, CodingKey { case employer }
        required init(from decoder: any Decoder) throws {
            employer = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .employer)
            try super.init(from: decoder)
        }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(employer, forKey: .employer)
            try super.encode(to: encoder)
        }
    }

    @Test(arguments: formats)
    func theTypePassedInIsTheTypeDecoded(format: (PlistFormat, PropertyListSerialization.PropertyListFormat)) throws {
        let (ours, _) = Self.encoders(format)
        let data = try ours.encode(Employee(name: "Ada", employer: "Engines"))
        let type: Person.Type = Employee.self
        let foundation = try PropertyListDecoder().decode(type, from: data)
        let decoded = try PlistDecoder().decode(type, from: data)
        #expect((foundation as? Employee)?.employer == "Engines")
        #expect((decoded as? Employee)?.employer == "Engines" && decoded.name == "Ada")
        struct Holder: Decodable {
            var people: [Person]
            init(from decoder: any Decoder) throws {
                var list = try decoder.unkeyedContainer()
                people = [try list.decode(Employee.self as Person.Type)]
            }
        }
        let list = try ours.encode([Employee(name: "Ada", employer: "Engines")])
        #expect((try PlistDecoder().decode(Holder.self, from: list).people[0] as? Employee)?.employer == "Engines")
    }

    // MARK: Top-level values

    /// What both encoders are for these tests.
    fileprivate protocol TopLevelEncoding {
        func encode<T: Encodable>(_ value: T) throws -> Data
    }

    private static let scalars: [(name: String, encode: @Sendable (any TopLevelEncoding) throws -> Data)] = [
        ("Bool", { try $0.encode(true) }), ("Int", { try $0.encode(5) }), ("Double", { try $0.encode(1.5) }),
        ("UInt8", { try $0.encode(UInt8(1)) }), ("String", { try $0.encode("text") }),
        ("nil", { try $0.encode(Int?.none) }), ("Date", { try $0.encode(Date(timeIntervalSinceReferenceDate: 0)) }),
    ]

    /// Foundation refuses a scalar as the whole property list, and so does ours, with the same
    /// error; data, arrays and dictionaries are written.
    @Test(arguments: formats)
    func topLevelScalarsAreRefusedAsFoundationRefusesThem(
        format: (PlistFormat, PropertyListSerialization.PropertyListFormat)
    ) throws {
        let (ours, foundation) = Self.encoders(format)
        for scalar in Self.scalars {
            let ourError = try #require(throws: EncodingError.self, "\(scalar.name)") { try scalar.encode(ours) }
            let theirs = try #require(throws: EncodingError.self, "\(scalar.name)") { try scalar.encode(foundation) }
            guard case .invalidValue(_, let ourContext) = ourError, case .invalidValue(_, let context) = theirs,
                let underlying = context.underlyingError as? EncodingError,
                case .invalidValue(_, let inner) = underlying
            else {
                Issue.record("\(ourError) / \(theirs)")
                continue
            }
            #expect(ourContext.debugDescription == inner.debugDescription)
        }
        #expect(try ours.encode(Data([1, 2])) == (try foundation.encode(Data([1, 2]))) || format.0 == .binary)
        #expect(try PropertyListDecoder().decode(Data.self, from: try ours.encode(Data([1, 2]))) == Data([1, 2]))
        #expect(try PlistEncoder().encodeToPlist(5) == 5)
    }

    // MARK: Configuration

    private struct Configured: EncodableWithConfiguration, DecodableWithConfiguration, Equatable {
        var value: Int
        enum Key: String, CodingKey { case value, note }

        func encode(to encoder: any Encoder, configuration: String) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(value, forKey: .value)
            try container.encode(configuration, forKey: .note)
        }

        init(value: Int) { self.value = value }

        init(from decoder: any Decoder, configuration: String) throws {
            let container = try decoder.container(keyedBy: Key.self)
            guard try container.decode(String.self, forKey: .note) == configuration else {
                throw DecodingError.dataCorruptedError(forKey: .note, in: container, debugDescription: "another note")
            }
            value = try container.decode(Int.self, forKey: .value)
        }
    }

    private struct Note: EncodingConfigurationProviding, DecodingConfigurationProviding {
        static let encodingConfiguration = "from the type"
        static let decodingConfiguration = "from the type"
    }

    @Test(arguments: formats)
    func configurationsAsFoundation(format: (PlistFormat, PropertyListSerialization.PropertyListFormat)) throws {
        let (ours, foundation) = Self.encoders(format)
        let value = Configured(value: 7)
        let ourBytes = try ours.encode(value, configuration: "note")
        #expect(
            try Plist(bytes: [UInt8](ourBytes))
                == Plist(bytes: [UInt8](try foundation.encode(value, configuration: "note"))))
        #expect(try PropertyListDecoder().decode(Configured.self, from: ourBytes, configuration: "note") == value)
        #expect(try PlistDecoder().decode(Configured.self, from: ourBytes, configuration: "note") == value)
        #expect(throws: DecodingError.self) {
            try PlistDecoder().decode(Configured.self, from: ourBytes, configuration: "other")
        }
        let provided = try ours.encode(value, configuration: Note.self)
        var detected = PlistFormat.openStep
        #expect(
            try PlistDecoder().decode(Configured.self, from: provided, format: &detected, configuration: Note.self)
                == value)
        #expect(detected == format.0)
        #expect(try PlistDecoder().decode(Configured.self, from: provided, configuration: Note.self) == value)
        #expect(try PropertyListDecoder().decode(Configured.self, from: provided, configuration: Note.self) == value)
        detected = .openStep
        #expect(
            try PlistDecoder().decode(Configured.self, from: ourBytes, format: &detected, configuration: "note")
                == value)
    }

    // MARK: OpenStep escapes

    /// `\U` without a hex digit is refused with its place (swift-foundation refuses it since
    /// 2026; the Foundation of this toolchain, like CoreFoundation, reads it as NUL); one to four
    /// digits read as swift-foundation and CoreFoundation read them.
    @Test(arguments: [#"'\U'"#, #"'\Ux'"#, #"'\Uxx'"#, #"'\Uxxx'"#, #"'\Uxxxx'"#, #"('a', "\U")"#])
    func unicodeEscapesWithoutDigitsAreRefused(text: String) throws {
        let error = try #require(throws: DecodingError.self) {
            try PlistDecoder().decode(String.self, from: Data(text.utf8))
        }
        #expect(error.context?.debugDescription.contains("\\U must be followed by 1 to 4 hex digits") == true)
        let readerError = try #require(throws: PlistError.self) { try Plist(openStep: Array(text.utf8)) }
        #expect(readerError.position?.line == 1)
        // Foundation here either refuses it too (swift-foundation from 2026) or reads NUL.
        if let foundation = try? PropertyListDecoder().decode(String.self, from: Data(text.utf8)) {
            #expect(foundation.hasPrefix("\u{0}"))
        }
    }

    @Test func unicodeEscapesWithDigitsReadAsFoundation() throws {
        let data = Data(#"('\U1z', '\U12z', '\U123z', '\U1234', '\U00e9', '\U0041')"#.utf8)
        let ours = try PlistDecoder().decode([String].self, from: data)
        #expect(ours == (try PropertyListDecoder().decode([String].self, from: data)))
        #expect(ours == ["\u{1}z", "\u{12}z", "\u{123}z", "\u{1234}", "\u{E9}", "A"])
    }
}

extension PlistEncoder: CodableCornerTests.TopLevelEncoding {}
extension PropertyListEncoder: CodableCornerTests.TopLevelEncoding {}
