import PlistCore
import Testing

/// The JSON reader against hostile input, beyond JSONReaderTests: every truncation of a small
/// document is an error with its line and column, mixed deep nesting stops where the limit is
/// passed, and numbers of any length are read without hanging.
@Suite struct JSONHostileTests {
    private func failure(_ text: String) throws -> PlistError {
        try #require(throws: PlistError.self) { try Plist(json: Array(text.utf8)) }
    }

    static let small = #"{"a": [1, -2.5e3, "c\u00e9\ud83d\ude00", true, {"$data": "AQ=="}], "b": {"c": null}}"#

    @Test func everyTruncationIsAnErrorWithAPosition() throws {
        let bytes = Array(Self.small.utf8)
        #expect(throws: PlistError.self) { try Plist(json: bytes) }  // null has no value by default
        #expect(try Plist(json: bytes, options: .init(jsonNull: "")).dictionary?.count == 2)
        for length in 1..<bytes.count {
            let error = try #require(throws: PlistError.self) { try Plist(json: Array(bytes[0..<length])) }
            #expect(error.position != nil && error.byteOffset <= length, "\(length): \(error)")
        }
    }

    @Test func mixedNestingFarPastTheLimitStopsWhereTheDeepContainerStarts() throws {
        let message = "containers are nested deeper than the limit of 512 (raise maxDepth to allow more)"
        #expect(try failure(String(repeating: #"{"a":"#, count: 100_000)).description == "1:2561: " + message)
        #expect(try failure(String(repeating: #"[{"a":"#, count: 50_000)).description == "1:1537: " + message)
    }

    @Test func numbersOfAnyLength() throws {
        let digits = String(repeating: "9", count: 100_000)
        // Beyond UInt64 a number is a real, as in Python's json: too large for a Double, infinity.
        #expect(try Plist(json: Array("[\(digits)]".utf8)) == [.real(.infinity)])
        #expect(try Plist(json: Array("[18446744073709551615]".utf8)) == [.integer(PlistInteger(UInt64.max))])
        #expect(try Plist(json: Array("[-9223372036854775808]".utf8)) == [.integer(PlistInteger(Int64.min))])
        #expect(try Plist(json: Array("[18446744073709551616]".utf8)) == [.real(18_446_744_073_709_551_616)])
        #expect(try Plist(json: Array("[1e99999]".utf8)) == [.real(.infinity)])
        #expect(try Plist(json: Array("[1e-99999]".utf8)) == [.real(0)])
    }

    @Test func unterminatedTokensSayWhereTheyStart() throws {
        #expect(try failure("\n  [\"abc").description == "2:4: the input ends inside a string")
        #expect(try failure("[tr").description == "1:2: expected `true`")
        #expect(try failure("{\"a\"").description == "1:5: object: expected `:` after the key, found the end")
    }
}
