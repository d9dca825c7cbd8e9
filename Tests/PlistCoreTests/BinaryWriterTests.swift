import Foundation
import Testing

@testable import PlistCore

/// The binary writer: exact bytes, uniquing, the smallest widths, and its limits.
@Suite struct BinaryWriterTests {
    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// Bytes Python's plistlib writes (`plistlib.dumps(v, fmt=FMT_BINARY, sort_keys=False)`):
    /// for these values, the same objects in the same order, so the same file.
    @Test func writesWhatPlistlibWritesForSimpleValues() throws {
        #expect(
            hex(try (["a": 1] as Plist).binaryBytes())
                == "62706c6973743030d1010251611001080b0d000000000000010100000000000000030000000000000000000000000000000f"
        )
        let mixed: Plist = ["x", "x", true, -1, .integer(PlistInteger(UInt64.max)), 1.5, .data(Data([0, 1]))]
        #expect(
            hex(try mixed.binaryBytes())
                == "62706c6973743030a70101020304050651780913ffffffffffffffff140000000000000000ffffffffffffffff233ff8"
                + "000000000000420001081012131c2d360000000000000101000000000000000700000000000000000000000000000039")
        #expect(
            hex(try (["k": [["n": "\u{E9}"]]] as Plist).binaryBytes())
                == "62706c6973743030d10102516ba103d10405516e6100e9080b0d0f12140000000000000101000000000000000600"
                + "000000000000000000000000000017")
    }

    @Test(
        arguments: [
            (Plist(0), "1000"), (255, "10ff"), (256, "110100"), (65535, "11ffff"), (65536, "1200010000"),
            (4_294_967_295, "12ffffffff"), (4_294_967_296, "130000000100000000"), (-1, "13ffffffffffffffff"),
            (.integer(PlistInteger(Int64.max)), "137fffffffffffffff"),
            (.integer(PlistInteger(UInt64(Int64.max) + 1)), "1400000000000000008000000000000000"),
            (.uid(255), "80ff"), (.uid(256), "810100"), (.uid(65536), "8300010000"),
            (.uid(1 << 32), "870000000100000000"),
            ("", "50"), ("abcdefghijklmno", "5f100f6162636465666768696a6b6c6d6e6f"), ("\u{E9}", "6100e9"),
            ("\u{1F600}", "62d83dde00"), ("\u{20AC}", "6120ac"), ("abcdefghi", "59616263646566676869"),
            ("\u{E9}abcdefgh", "6900e900610062006300640065006600670068"),
            (.date(Date(timeIntervalSinceReferenceDate: 1)), "333ff0000000000000"),
            (false, "08"), (true, "09"), (.data(Data()), "40"),
        ] as [(Plist, String)])
    func encodesScalarsInTheirSmallestForm(value: Plist, encoding: String) throws {
        let bytes = try value.binaryBytes()
        #expect(hex(Array(bytes[8..<bytes.count - 33])) == encoding)
        #expect(try Plist(binary: bytes) == value)
    }

    @Test func storesEachScalarOnce() throws {
        let value: Plist = ["a": ["same", "same", 1, 1, 1.0, true, true], "same": 1]
        let bytes = try value.binaryBytes()
        // dict, "a", "same", array, 1, 1.0, true
        #expect(objectCount(bytes) == 7)
    }

    @Test func keepsValuesThatCompareEqualButAreSpelledDifferently() throws {
        let value: Plist = [.real(0.0), .real(-0.0), "\u{E9}", "e\u{301}", .real(.nan), .real(.nan)]
        let bytes = try value.binaryBytes()
        #expect(objectCount(bytes) == 6)
        let read = try Plist(binary: bytes)
        #expect(read == value)
        #expect(read[1]?.double?.sign == .minus)
        #expect(read[3]?.string?.unicodeScalars.count == 2)
    }

    @Test func aContainerIsStoredOncePerInstance() throws {
        let inner: Plist = ["x"]
        #expect(objectCount(try ([inner, inner] as Plist).binaryBytes()) == 3)
        let separate: Plist = [["x"], ["x"], [:], ["k": 1], ["k": 1]]
        // Equal containers built separately stay separate (as in CoreFoundation); empty ones are one.
        #expect(objectCount(try separate.binaryBytes()) == 9)
        #expect(try Plist(binary: separate.binaryBytes()) == separate)
    }

    /// Dictionaries sharing their keys' storage (as the binary reader makes them, with
    /// `mapValues`) reuse the first one's key objects: the same bytes as the same tree with
    /// every dictionary's keys its own, among dictionaries with other keys of the same texts.
    @Test func dictionariesSharingKeysGiveTheBytesOfUnsharedOnes() throws {
        let first: PlistDictionary = ["name": "a", "id": 1, "caf\u{E9}": true, "tags": ["x"]]
        var shared: [Plist] = []
        var unshared: [Plist] = []
        for index in 0..<50 {
            let sharing = first.mapValues { value -> Plist in
                value.integer != nil ? .integer(PlistInteger(index)) : value
            }
            #expect(StorageIdentity(keysOf: sharing) == StorageIdentity(keysOf: first))
            let own = PlistDictionary(uniqueKeysWithValues: zip(sharing.keys.map { String($0) }, sharing.values))
            // Same key texts in another order, and a subset: key objects are per text, not per set.
            let reordered: PlistDictionary = ["id": .integer(PlistInteger(index)), "name": "b"]
            shared += [.dictionary(sharing), .dictionary(reordered)]
            unshared += [.dictionary(own), .dictionary(reordered)]
        }
        let sharedBytes = try Plist.array(shared).binaryBytes()
        #expect(sharedBytes == (try Plist.array(unshared).binaryBytes()))
        #expect(try Plist(binary: sharedBytes) == .array(unshared))
    }

    @Test func aHugeTreeOfSharedContainersIsWrittenSmall() throws {
        var value: Plist = "leaf"
        for _ in 0..<100 { value = [value, ["k": value]] }
        let bytes = try value.binaryBytes()
        #expect(objectCount(bytes) == 202)  // 100 arrays, 100 dictionaries, "leaf", "k"
        #expect(bytes.count < 2_000)
        // The reader counts every use of a shared value, so this one is over its default limit.
        let error = try #require(throws: PlistError.self) { try Plist(binary: bytes) }
        #expect(error.kind == .tooManyObjects(limit: 1 << 24))
        var small: Plist = "leaf"
        for _ in 0..<10 { small = [small, ["k": small]] }
        #expect(try Plist(binary: small.binaryBytes()) == small)
    }

    @Test func aSharedContainerIsCheckedForDepthWhereverItAppears() throws {
        var inner: Plist = 1
        for _ in 0..<5 { inner = [inner] }
        let value: Plist = [inner, [[inner]]]
        #expect(throws: PlistError(.tooDeep(limit: 7), at: 0)) {
            try value.binaryBytes(options: PlistWriteOptions(maxDepth: 7))
        }
        #expect(try Plist(binary: value.binaryBytes(options: PlistWriteOptions(maxDepth: 8))) == value)
    }

    @Test func usesTheSmallestReferenceAndOffsetWidths() throws {
        // 255 objects: 1-byte references; 256 objects need 2 (CoreFoundation wants count < 2^(8*size)).
        let small = Plist.array((0..<254).map { Plist($0) })
        let smallBytes = try small.binaryBytes()
        #expect(objectCount(smallBytes) == 255)
        #expect(smallBytes[smallBytes.count - 25] == 1)
        let large = Plist.array((0..<255).map { Plist($0) })
        let largeBytes = try large.binaryBytes()
        #expect(objectCount(largeBytes) == 256)
        #expect(largeBytes[largeBytes.count - 25] == 2)
        #expect(try Plist(binary: largeBytes) == large)
        // The offset width must also hold the offset table's own position.
        #expect(largeBytes[largeBytes.count - 26] == 2)
        let threeByteOffsets = Plist.data(Data(count: 70_000))
        let threeByteBytes = try threeByteOffsets.binaryBytes()
        #expect(threeByteBytes[threeByteBytes.count - 26] == 3)
    }

    @Test func isDeterministic() throws {
        let value: Plist = ["b": [1, 2, ["c": .date(Date(timeIntervalSinceReferenceDate: 5))]], "a": "\u{1F600}"]
        #expect(try value.binaryBytes() == (try value.binaryBytes()))
    }

    @Test func refusesToWriteDeeperThanTheLimit() throws {
        var value: Plist = 1
        for _ in 0..<6 { value = [value] }
        #expect(try Plist(binary: value.binaryBytes(options: PlistWriteOptions(maxDepth: 6))) == value)
        #expect(throws: PlistError(.tooDeep(limit: 5), at: 0)) {
            try value.binaryBytes(options: PlistWriteOptions(maxDepth: 5))
        }
    }

    private func objectCount(_ bytes: [UInt8]) -> Int {
        bytes[(bytes.count - 24)..<(bytes.count - 16)].reduce(0) { $0 << 8 | Int($1) }
    }
}
