import Foundation
import PlistKit
import Testing

/// The same logical document past a read limit is refused by every reader with the same kind of
/// error: binary (tree and Codable), XML, JSON and OpenStep all check their input with one
/// `ReadBudget`. Shared references count at every use, so the binary writer's uniquing of equal
/// strings makes no difference.
@Suite struct ReadLimitsAcrossFormatsTests {
    private static let options = PlistReadOptions(maxDepth: 5, maxObjects: 10, maxContentBytes: 100)

    /// `value` in every format, each read back with `options`: the error kind of each reader.
    private func kinds<T: Decodable>(
        _ value: Plist, decoding type: T.Type
    ) throws -> [String: PlistError.Kind] {
        let options = Self.options
        var kinds: [String: PlistError.Kind] = [:]
        let binary = try value.binaryBytes()
        kinds["binary"] = try #require(throws: PlistError.self) { try Plist(binary: binary, options: options) }.kind
        let xml = try value.xmlBytes()
        kinds["xml"] = try #require(throws: PlistError.self) { try Plist(xml: xml, options: options) }.kind
        let json = try value.jsonBytes()
        kinds["json"] = try #require(throws: PlistError.self) { try Plist(json: json, options: options) }.kind
        let openStep = try value.openStepBytes()
        kinds["openStep"] = try #require(throws: PlistError.self) { try Plist(openStep: openStep, options: options) }
            .kind
        let decoder = PlistDecoder()
        decoder.readOptions = options
        for (name, bytes) in [("binary Codable", binary), ("xml Codable", xml)] {
            let error = try #require(throws: DecodingError.self) { try decoder.decode(type, from: bytes) }
            guard case .dataCorrupted(let context) = error, let underlying = context.underlyingError as? PlistError
            else {
                Issue.record("\(name): \(error)")
                continue
            }
            kinds[name] = underlying.kind
        }
        return kinds
    }

    private func expectEveryReader(_ kinds: [String: PlistError.Kind], refuses expected: PlistError.Kind) {
        #expect(kinds.count == 6)
        for (reader, kind) in kinds { #expect(kind == expected, "\(reader)") }
    }

    @Test func tooDeep() throws {
        var value: Plist = "x"
        for _ in 0..<6 { value = [value] }
        expectEveryReader(try kinds(value, decoding: [[[[[[String]]]]]].self), refuses: .tooDeep(limit: 5))
    }

    @Test func tooManyObjects() throws {
        // One string, stored once in binary, used 20 times.
        let value = Plist.array(Array(repeating: "a", count: 20))
        expectEveryReader(try kinds(value, decoding: [String].self), refuses: .tooManyObjects(limit: 10))
    }

    @Test func tooMuchContent() throws {
        let value = Plist.array(Array(repeating: .string(String(repeating: "b", count: 50)), count: 3))
        expectEveryReader(try kinds(value, decoding: [String].self), refuses: .tooMuchContent(limit: 100))
    }
}
