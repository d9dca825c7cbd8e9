import Foundation
import PlistKit
import TestSupport
import Testing

/// The encoder numbers the keys of a key type of one byte or none once per type and value
/// below 64 (`EncodingState.keyNumberSlots`). These values have keys of types that share bytes
/// and names, and bytes past 64 (which go by name), which must still each get their own name.
@Suite struct CodableKeyNumberTests {
    /// A key of one byte whose name comes from the byte.
    private struct ByteKey: CodingKey {
        let byte: UInt8
        init(_ byte: UInt8) { self.byte = byte }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { nil }
        var stringValue: String { "k\(byte)" }
        var intValue: Int? { nil }

        /// A key by name, for the custom strategy.
        struct Named: CodingKey {
            let stringValue: String
            init(_ name: String) { stringValue = name }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
            var intValue: Int? { nil }
        }
    }

    /// An enum of one byte whose names depend on the type it is specialized with.
    private enum Tagged<T>: CodingKey {
        case first, second
        init?(stringValue: String) { nil }
        init?(intValue: Int) { nil }
        var stringValue: String { "\(T.self).\(self == .first ? "first" : "second")" }
        var intValue: Int? { nil }
    }

    /// A key type of no bytes.
    private enum OnlyKey: String, CodingKey { case only }

    private struct Small: Encodable { var value: Int }

    private struct ManyKeyTypes: Encodable {
        func encode(to encoder: any Encoder) throws {
            var top = encoder.container(keyedBy: ByteKey.self)
            try top.encode(1, forKey: ByteKey(0))
            try top.encode("two", forKey: ByteKey(1))
            var ints = top.nestedContainer(keyedBy: Tagged<Int>.self, forKey: ByteKey(2))
            try ints.encode(3, forKey: .first)
            try ints.encode(4, forKey: .second)
            var strings = top.nestedContainer(keyedBy: Tagged<String>.self, forKey: ByteKey(3))
            try strings.encode(5, forKey: .first)
            var only = top.nestedContainer(keyedBy: OnlyKey.self, forKey: ByteKey(4))
            try only.encode(6, forKey: .only)
            try top.encode(Small(value: 7), forKey: ByteKey(5))
            try top.encode([Small(value: 8)], forKey: ByteKey(255))
            try top.encode(9, forKey: ByteKey(0))
        }
    }

    @Test(arguments: [PlistFormat.binary, .xml])
    func keysOfManyKeyTypesKeepTheirNames(format: PlistFormat) throws {
        let expected: Plist = [
            "k0": 9, "k1": "two", "k2": ["Int.first": 3, "Int.second": 4], "k3": ["String.first": 5],
            "k4": ["only": 6], "k5": ["value": 7], "k255": [["value": 8]],
        ]
        let encoder = PlistEncoder()
        #expect(try encoder.encodeToPlist(ManyKeyTypes()).isIdentical(to: expected))
        encoder.outputFormat = format
        #expect(try encoder.encodeToBytes(ManyKeyTypes()) == expected.bytes(format: format, options: .init()))
    }

    /// A value that holds a value of its own type: its keys at every depth.
    private final class Chain: Encodable {
        let value: Int
        let next: Chain?
        init(_ value: Int, next: Chain?) {
            self.value = value
            self.next = next
        }
    }

    /// A custom key strategy sees the coding path, so its keys are not numbered once per type.
    @Test func customKeysDependOnThePath() throws {
        let encoder = PlistEncoder()
        encoder.keyEncodingStrategy = .custom { path in
            ByteKey.Named("\(path.count).\(path.last!.stringValue)")
        }
        let tree = try encoder.encodeToPlist(Chain(1, next: Chain(2, next: nil)))
        #expect(tree.isIdentical(to: ["1.value": 1, "1.next": ["2.value": 2]]))
    }

    /// Snake case is made once per key and still applies at every depth.
    @Test func snakeCaseKeysAtEveryDepth() throws {
        struct Inner: Encodable { var someValue: Int }
        struct Outer: Encodable {
            var someValue: Int
            var innerItems: [Inner]
        }
        let encoder = PlistEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let tree = try encoder.encodeToPlist(
            Outer(someValue: 1, innerItems: [.init(someValue: 2), .init(someValue: 3)]))
        #expect(tree.isIdentical(to: ["some_value": 1, "inner_items": [["some_value": 2], ["some_value": 3]]]))
    }
}
