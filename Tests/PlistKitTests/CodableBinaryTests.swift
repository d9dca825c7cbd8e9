import Foundation
import PlistKit
import TestSupport
import Testing

/// The decoder reads binary files object by object, without building the tree first: its
/// errors say at which byte the bad value is, and its limits hold against hostile files.
@Suite struct CodableBinaryTests {
    private struct Small: Codable { var value: Int8 }
    private struct Wrapper: Codable { var items: [Small] }

    /// A file with one-byte offsets and references holding `objects`, the first one at the top.
    private func bplist(_ objects: [[UInt8]]) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let tableOffset = UInt8(bytes.count)
        bytes += offsets + [0, 0, 0, 0, 0, 0, 1, 1]
        bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(objects.count)] + [UInt8](repeating: 0, count: 8)
        bytes += [0, 0, 0, 0, 0, 0, 0, tableOffset]
        return Data(bytes)
    }

    private func offset(of object: [UInt8], in bytes: [UInt8]) throws -> Int {
        try #require(bytes.firstRange(of: object)).lowerBound
    }

    @Test func aValueOfAnotherTypeIsReportedAtItsByte() throws {
        let bytes = try Plist.dictionary(["items": [["value": 1], ["value": "x"]]]).binaryBytes()
        let error = try #require(throws: DecodingError.self) { try PlistDecoder().decode(Wrapper.self, from: bytes) }
        guard case .typeMismatch(_, let context) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["items", "Index 1", "value"])
        #expect(
            context.debugDescription
                == "Expected to decode Int8 but found a string (\"x\") instead, at byte \(try offset(of: [0x51, 0x78], in: bytes))."
        )
        let nested = try #require(throws: DecodingError.self) {
            try PlistDecoder().decode(Wrapper.self, from: try Plist.dictionary(["items": [[1]]]).binaryBytes())
        }
        #expect(
            nested.context?.debugDescription.hasPrefix(
                "Expected to decode Dictionary<String, Any> but found an array instead, at byte ") == true)
    }

    @Test func aNumberThatDoesNotFitIsReportedAtItsByte() throws {
        let bytes = try Plist.dictionary(["items": [["value": 1], ["value": 300]]]).binaryBytes()
        let error = try #require(throws: DecodingError.self) { try PlistDecoder().decode(Wrapper.self, from: bytes) }
        #expect(error.context?.codingPath.map(\.stringValue) == ["items", "Index 1", "value"])
        #expect(
            error.context?.debugDescription
                == "Parsed property list number <300> does not fit in Int8, at byte \(try offset(of: [0x11, 0x01, 0x2C], in: bytes))."
        )
    }

    /// An unreadable object is an error at its coding path only when a type asks for it.
    @Test func anUnreadableObjectIsReportedWhereItIsAskedFor() throws {
        struct Pair: Decodable { var a: Int }
        // {"a": <invalid marker 0x0F>, "b": 1}
        let data = bplist([[0xD2, 1, 2, 3, 4], [0x51, 0x61], [0x51, 0x62], [0x0F], [0x10, 1]])
        let error = try #require(throws: DecodingError.self) { try PlistDecoder().decode(Pair.self, from: data) }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["a"])
        #expect((context.underlyingError as? PlistError) == PlistError(.invalidMarker(0x0F), at: 17))
        #expect(throws: PlistError.self) { try Plist(binary: [UInt8](data)) }
    }

    /// A repeated key keeps its last value, as the tree reader does.
    @Test func aRepeatedKeyKeepsItsLastValue() throws {
        struct One: Decodable { var a: Int }
        let data = bplist([[0xD2, 1, 1, 2, 3], [0x51, 0x61], [0x10, 1], [0x10, 2]])
        #expect(try PlistDecoder().decode(One.self, from: data).a == 2)
        #expect(try Plist(binary: [UInt8](data))["a"] == 2)
    }

    private struct Node: Decodable { var children: [Node] }

    /// A dictionary whose array holds the dictionary itself: a recursive type would recurse
    /// forever; the cycle is refused before anything is decoded, as `Plist(binary:)` refuses it.
    @Test func aCycleIsRefused() throws {
        let data = bplist([[0xD1, 1, 2], [0x58] + Array("children".utf8), [0xA1, 0]])
        let error = try #require(throws: DecodingError.self) { try PlistDecoder().decode(Node.self, from: data) }
        #expect((error.context?.underlyingError as? PlistError) == PlistError(.cycle(object: 0), at: 8))
        #expect(throws: PlistError(.cycle(object: 0), at: 8)) { try Plist(binary: [UInt8](data)) }
    }

    /// Nesting past the depth limit stops where the limit is passed.
    @Test func nestingStopsAtTheDepthLimit() throws {
        var value: Plist = ["children": []]
        for _ in 0..<300 { value = ["children": [value]] }
        let bytes = try value.binaryBytes(options: .init(maxDepth: 1000))
        let error = try #require(throws: DecodingError.self) { try PlistDecoder().decode(Node.self, from: bytes) }
        #expect((error.context?.underlyingError as? PlistError)?.kind == .tooDeep(limit: 512))
        let decoder = PlistDecoder()
        decoder.readOptions.maxDepth = 1000
        #expect(try decoder.decode(Node.self, from: bytes).children.count == 1)
    }

    /// Integers in nested arrays of any depth.
    private struct Fan: Decodable {
        var count = 0
        init(from decoder: any Decoder) throws {
            guard var elements = try? decoder.unkeyedContainer() else {
                _ = try decoder.singleValueContainer().decode(Int.self)
                count = 1
                return
            }
            while !elements.isAtEnd { count += try elements.decode(Fan.self).count }
        }
    }

    /// 64 levels of `[previous, previous]` in a few hundred bytes describe 2^64 integers: the
    /// file is weighed before decoding, so it is refused at once.
    @Test(.timeLimit(.minutes(10))) func sharedReferencesCountTowardsTheObjectLimit() throws {
        var value: Plist = 1
        for _ in 0..<64 { value = [value, value] }
        let bytes = try value.binaryBytes()
        #expect(bytes.count < 1024)
        let error = try #require(throws: DecodingError.self) { try PlistDecoder().decode(Fan.self, from: bytes) }
        #expect((error.context?.underlyingError as? PlistError)?.kind == .tooManyObjects(limit: 1 << 24))
        var small: Plist = 1
        for _ in 0..<10 { small = [small, small] }
        let decoder = PlistDecoder()
        #expect(try decoder.decode(Fan.self, from: try small.binaryBytes()).count == 1024)
        decoder.readOptions.maxObjects = 2046
        #expect(throws: DecodingError.self) { try decoder.decode(Fan.self, from: try small.binaryBytes()) }
        decoder.readOptions.maxObjects = 2047
        #expect(try decoder.decode(Fan.self, from: try small.binaryBytes()).count == 1024)
    }
}
