import Foundation
import PlistCore
import TestSupport
import Testing

/// Every binary file of the shared corpus reads to exactly the oracle's value, keys in file
/// order, and every invalid binary file is rejected with its specific error.
@Suite(.needsCorpus) struct CorpusTests {
    @Test func corpusIsPresent() {
        #expect(Corpus.validBinary.count >= 60, "expected the shared corpus at \(Paths.corpus.path)")
        #expect(Corpus.invalidBinary.count >= 24)
    }

    @Test(arguments: Corpus.validBinary)
    func readsLikeTheOracle(entry: Corpus.Entry) throws {
        let value = try Plist(binary: try Paths.bytes(entry.url))
        let expected = try Corpus.expected(entry)
        #expect(value.isIdentical(to: expected), "\(entry.file): \(entry.note)")
    }

    @Test(arguments: Corpus.validBinary)
    func roundTripsThroughTheWriter(entry: Corpus.Entry) throws {
        let bytes = try Paths.bytes(entry.url)
        let value = try Plist(binary: bytes)
        let written = try value.binaryBytes()
        #expect(try Plist(binary: written).isIdentical(to: value))
        #expect(try value.binaryBytes() == written, "output is deterministic")
    }

    /// The exact message for each invalid binary file of the corpus.
    static let invalidMessages: [String: String] = [
        "cpython__invalid-binary-extremally-large-array-size-64-bit.bplist":
            "byte 9: invalid length: the count after a 0xF length nibble must be an integer object of 1, 2, 4 or 8 bytes",
        "cpython__invalid-binary-integer-overflow-in-offset-table-offset.bplist":
            "byte 34: the offset table (1 entries of 1 bytes at byte 18446744073709551615) does not end where the trailer starts",
        "cpython__invalid-binary-integer-overflow-in-reference-index.bplist":
            "byte 9: reference to object 18446744073709551615, but there are only 2 objects",
        "cpython__invalid-binary-invalid-utf-16.bplist": "byte 9: invalid UTF-16: an unpaired surrogate",
        "cpython__invalid-binary-non-hashable-key.bplist": "byte 11: a dictionary key is not a string (marker 0xA0)",
        "cpython__invalid-binary-ref-size-0.bplist":
            "byte 20: the trailer's object reference size is 0, which is impossible",
        "cpython__invalid-binary-too-large-offset.bplist": "byte 9: object 0 is at byte 42, outside the object area",
        "cpython__invalid-binary-too-short-data.bplist": "byte 8: the input ends inside the 32-byte trailer",
        "ddplist__github-issue42.plist": "byte 82: the trailer's offset size is 118, which is impossible",
        "ddplist__github-issue72.plist": "byte 1702: the trailer's offset size is 0, which is impossible",
        "ddplist__github-issue73-2.plist":
            "byte 6: unsupported binary property list version \"\u{DA}\" (only \"00\" is known)",
        "ddplist__github-issue73-6.plist": "byte 0: not a binary property list (it does not start with \"bplist\")",
        "ddplist__github-issue74-crash-879b2aa0.bplist":
            "byte 163: the trailer's object count is 0, which is impossible",
        "ddplist__github-issue75-crash-9f563bdd.bplist":
            "byte 140: the trailer's offset size is 116, which is impossible",
        "ddplist__github-issue78.plist": "byte 404: reference to object 17592186044417, but there are only 1 objects",
        "ddplist__github-issue82-crash-f810b5e4.bplist":
            "byte 91: the trailer's object reference size is 136, which is impossible",
        "libplist__fuzz-bplist-39f13471.bplist": "byte 11: a dictionary key is not a string (marker 0x10)",
        "libplist__fuzz-bplist-47662910.bplist":
            "byte 71: the offset table (8 entries of 1 bytes at byte 37) does not end where the trailer starts",
        "libplist__fuzz-bplist-65579630.bplist":
            "byte 1368: the offset table (241 entries of 1 bytes at byte 293) does not end where the trailer starts",
        "libplist__fuzz-bplist-acb3c00a.bplist":
            "byte 1077: the offset table (247 entries of 1 bytes at byte 228) does not end where the trailer starts",
        "libplist__malformed_dict.bplist": "byte 34: a dictionary key is not a string (marker 0xD1)",
        "libplist__recursion.bplist":
            "byte 52: the offset table (5 entries of 2 bytes at byte 24) does not end where the trailer starts",
        "rustplist__binary_circular_array.plist":
            "byte 443: the offset table (233 entries of 1 bytes at byte 205) does not end where the trailer starts",
        "rustplist__binary_zero_offset_size.plist": "byte 250: the trailer's offset size is 0, which is impossible",
    ]

    @Test(arguments: Corpus.invalidBinary)
    func rejectsInvalidFile(entry: Corpus.Entry) throws {
        let name = String(entry.file.dropFirst("invalid/".count))
        let expected = try #require(Self.invalidMessages[name], "no expected message for \(name)")
        let error = try #require(throws: PlistError.self) { try Plist(binary: try Paths.bytes(entry.url)) }
        #expect(error.description == expected)
    }
}
