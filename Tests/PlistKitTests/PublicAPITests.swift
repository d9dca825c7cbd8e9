import PlistKit
import Testing

/// What users see of errors and coders: codes to compare, locations only where there is one,
/// and coders that can be shared across tasks.
@Suite struct PublicAPITests {
    @Test func errorsHaveACodeAMessageAndALocationWhereThereIsOne() throws {
        let truncated = try #require(throws: PlistError.self) { try Plist(bytes: Array("bplist00".utf8)) }
        #expect(truncated.code == .truncated)
        #expect(truncated.code.description == "truncated")
        #expect(truncated.byteOffset == 8)
        #expect(truncated.position == nil)
        #expect(truncated.description == "byte 8: " + truncated.message)

        let text = try #require(throws: PlistError.self) { try Plist(json: Array("[tru]".utf8)) }
        #expect(text.code == .syntax)
        #expect(text.position == TextPosition(line: 1, column: 2))
        #expect(text.byteOffset == 1)
        #expect(text.description == "1:2: expected `true`")

        let empty = try #require(throws: PlistError.self) { try Plist(bytes: [UInt8]()) }
        #expect(empty.code == .emptyInput)
        #expect(empty.byteOffset == nil)
        #expect(empty.description == "the input is empty")

        let missing = try #require(throws: PlistError.self) {
            var value: Plist = ["a": ["b": 1]]
            try value.remove(at: "a.c")
        }
        #expect(missing.code == .noValueAtKeyPath)
        #expect(missing.keyPath == "a.c")
        #expect(missing.byteOffset == nil)
    }

    @Test func keyedArchiveErrorsHaveACode() throws {
        let error = try #require(throws: KeyedArchiveError.self) { try KeyedArchive.resolve(["a": 1]) }
        #expect(error.code == .notAnArchive)
        #expect(error.description == error.message)
    }

    @Test func codersAreSharedAcrossTasks() async throws {
        struct Point: Codable, Equatable, Sendable { var x: Int, y: Int }
        let encoder = PlistEncoder()
        encoder.outputFormat = .xml
        let decoder = PlistDecoder()
        let points = try await withThrowingTaskGroup(of: Point.self) { group in
            for index in 0..<8 {
                group.addTask { try decoder.decode(Point.self, from: try encoder.encode(Point(x: index, y: -index))) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(points.map(\.x)) == Set(0..<8))
        #expect(points.allSatisfy { $0.y == -$0.x })
    }
}
