import Foundation
import PlistCore
import Testing

/// The OpenStep reader against hostile input, beyond OpenStepReaderTests: every truncation of a
/// small document is an error with its line and column, and deep nesting of every container
/// kind stops at the limit, where it starts.
@Suite struct OpenStepHostileTests {
    private func failure(_ text: String) throws -> PlistError {
        try #require(throws: PlistError.self) { try Plist(openStep: Array(text.utf8)) }
    }

    static let small = #"{ a = (b, "c\U00e9\101", <0f bd>, <*I1>, <[YQ==]>, {d = e;}); /* x */ f; }"#

    @Test func everyTruncationIsAnErrorWithAPosition() throws {
        let bytes = Array(Self.small.utf8)
        for length in 1..<bytes.count {
            let error = try #require(throws: PlistError.self) { try Plist(openStep: Array(bytes[0..<length])) }
            #expect(error.position != nil, "\(length): \(error)")
            #expect(try #require(error.byteOffset) <= length, "\(length): \(error)")
        }
    }

    @Test func nestingFarPastTheLimitStopsWhereTheDeepContainerStarts() throws {
        let message = "containers are nested deeper than the limit of 512 (raise maxDepth to allow more)"
        #expect(try failure(String(repeating: "{a=", count: 100_000)).description == "1:1537: " + message)
        #expect(try failure(String(repeating: "(", count: 100_000)).description == "1:513: " + message)
        #expect(try failure(String(repeating: "({a=", count: 50_000)).description == "1:1025: " + message)
        // A .strings file is a dictionary without braces: its values count from depth 1.
        #expect(try failure("a = " + String(repeating: "(", count: 100_000)).description == "1:516: " + message)
    }

    @Test func anUnterminatedCommentEndsTheText() throws {
        #expect(try failure("( a /* b").description == "1:1: the input ends inside an array")
        #expect(try Plist(openStep: Array("( a ) /* b".utf8)) == ["a"])
    }
}
