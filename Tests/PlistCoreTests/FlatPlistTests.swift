import Foundation
import PlistCore
import PropertyBased
import TestSupport
import Testing

/// `FlatPlist`, what the Codable encoder builds: its writers give exactly the bytes the `Plist`
/// writers give for the same value, and it holds the same value.
@Suite struct FlatPlistTests {
    private static let unsorted = PlistWriteOptions(sortsKeys: false)

    private func expectSameOutput(_ value: Plist, _ comment: Comment? = nil) throws {
        guard let flat = FlatPlist(value) else { return }
        #expect(flat.plist(at: 0).firstDifference(from: value) == nil, comment)
        #expect(flat.plist(at: 0).isIdentical(to: value), comment)
        #expect(try flat.binaryBytes(options: .init()) == value.binaryBytes(), comment)
        // XML: the same bytes, or both refuse the value (a date outside the years 1 to 9999).
        func same(_ flatBytes: () throws -> [UInt8], _ treeBytes: () throws -> [UInt8]) -> Bool {
            switch (Result { try flatBytes() }, Result { try treeBytes() }) {
            case (.success(let a), .success(let b)): return a == b
            case (.failure(let a as PlistError), .failure(let b as PlistError)): return a == b
            default: return false
            }
        }
        #expect(same({ try flat.xmlBytes(options: .init()) }, { try value.xmlBytes() }), comment)
        #expect(
            same({ try flat.xmlBytes(options: Self.unsorted) }, { try value.xmlBytes(options: Self.unsorted) }), comment
        )
        // Written by threads (`XMLParts`), which a value this small never is otherwise.
        #expect(same({ try flat.xmlBytes(options: .init(), threads: 3) }, { try value.xmlBytes() }), comment)
        #expect(
            same(
                { try flat.xmlBytes(options: Self.unsorted, threads: 2) },
                { try value.xmlBytes(options: Self.unsorted) }),
            comment)
    }

    @Test(
        .needsCorpus,
        arguments: Corpus.nonEmpty(
            Corpus.entries.filter {
                !$0.file.hasPrefix("invalid/") && FileManager.default.fileExists(atPath: $0.expectedURL.path)
            }, "valid"))
    func corpusValuesGiveTheTreeWritersBytes(entry: Corpus.Entry) throws {
        try expectSameOutput(try Corpus.expected(entry), "\(entry)")
    }

    @Test func randomValuesGiveTheTreeWritersBytes() async throws {
        await propertyCheck(count: 300, input: RoundTripPropertyTests.values) { value in
            try expectSameOutput(value.replacingUIDsWithIntegers)
        }
    }

    /// Data from 256 bytes on (`ObjectTable.largeDataSize`) is kept aside and copied into the file
    /// once; the bytes are those of the reference path (`FlatPlist`, which copies all data into
    /// its scalar bytes): equal data stored once, sizes on both sides of the limit.
    @Test func largeDataIsWrittenAsSmallDataIs() throws {
        let limit = 256  // ObjectTable.largeDataSize
        func data(_ count: Int, _ seed: UInt8) -> Plist {
            .data(Data((0..<count).map { UInt8(truncatingIfNeeded: $0) &+ seed }))
        }
        let shared = data(limit, 1)
        let value: Plist = [
            "a": shared, "b": data(limit - 1, 1), "c": data(limit, 1), "d": data(limit, 2), "e": [shared, shared],
            "f": data(70_000, 3), "g": data(70_000, 3), "h": data(limit + 1, 1),
        ]
        try expectSameOutput(value)
        let bytes = try value.binaryBytes()
        #expect(try Plist(binary: bytes).isIdentical(to: value))
        // Each distinct data once: 256 + 255 + 256 + 70,000 + 257 bytes of content, not more.
        #expect(bytes.count < 71_024 + 200, "\(bytes.count)")
    }

    /// A key added again keeps its first place and takes the last value, as in `Plist`.
    @Test func aKeyAddedAgainKeepsItsPlaceAndTakesTheLastValue() throws {
        var flat = FlatPlist()
        let top = flat.addContainer(.dictionary, to: -1, key: .none)
        try flat.add(.signed(1), to: top, key: .name("b"))
        try flat.add(.string("x"), to: top, key: .name("a"))
        let list = flat.addContainer(.array, to: top, key: .name("b"))
        try flat.add(.bool(true), to: list, key: .none)
        try flat.add(.signed(2), to: top, key: .name("a"))
        let expected: Plist = ["b": [true], "a": 2]
        #expect(flat.plist(at: 0).isIdentical(to: expected))
        #expect(try flat.binaryBytes(options: .init()) == expected.binaryBytes())
        #expect(try flat.xmlBytes(options: .init()) == expected.xmlBytes())
        #expect(try flat.xmlBytes(options: Self.unsorted) == expected.xmlBytes(options: Self.unsorted))
    }

    /// A key given by its number (`keyNumber(of:)`) is the key given by its name: mixed in one
    /// dictionary, added again either way, and numbered before or after first use by name.
    @Test func keysByNumberAreKeysByName() throws {
        var flat = FlatPlist()
        let top = flat.addContainer(.dictionary, to: -1, key: .none)
        let a = flat.keyNumber(of: "a")
        try flat.add(.signed(1), to: top, key: .number(a))
        try flat.add(.signed(2), to: top, key: .name("b"))
        try flat.add(.signed(3), to: top, key: .number(flat.keyNumber(of: "b")))
        try flat.add(.signed(4), to: top, key: .name("a"))
        try flat.add(.signed(5), to: top, key: .number(flat.keyNumber(of: "c")))
        #expect(flat.keyNumber(of: "a") == a)
        #expect(flat.keys.names == ["a", "b", "c"])
        let expected: Plist = ["a": 4, "b": 3, "c": 5]
        #expect(flat.plist(at: 0).isIdentical(to: expected))
        #expect(try flat.binaryBytes(options: .init()) == expected.binaryBytes())
        #expect(try flat.xmlBytes(options: .init()) == expected.xmlBytes())
        // In an array, a key is left out with its value, whichever way it is given.
        let list = flat.addContainer(.array, to: top, key: .name("list"))
        try flat.add(.signed(6), to: list, key: .number(a))
        #expect(flat.plist(at: 0).isIdentical(to: ["a": 4, "b": 3, "c": 5, "list": []]))
    }

    /// The same, in dictionaries whose keys are numbered past the first 128 (which the XML
    /// writer sorts, where it places the first keys without sorting), mixed with first keys.
    @Test func aKeyAddedAgainAmongManyKeysTakesTheLastValue() throws {
        var flat = FlatPlist()
        let top = flat.addContainer(.array, to: -1, key: .none)
        let many = flat.addContainer(.dictionary, to: top, key: .none)
        for number in 0..<200 { try flat.add(.signed(Int64(number)), to: many, key: .name("k\(199 - number)")) }
        let again = flat.addContainer(.dictionary, to: top, key: .none)
        for (key, value) in [("k5", 1), ("k150", 2), ("k5", 3), ("k20", 4), ("k150", 5), ("k150", 6)] {
            try flat.add(.signed(Int64(value)), to: again, key: .name(key))
        }
        var expectedMany = PlistDictionary()
        for number in 0..<200 { expectedMany["k\(199 - number)"] = .integer(PlistInteger(number)) }
        let expected: Plist = [.dictionary(expectedMany), ["k5": 3, "k150": 6, "k20": 4]]
        #expect(flat.plist(at: 0).isIdentical(to: expected))
        #expect(try flat.xmlBytes(options: .init()) == expected.xmlBytes())
        #expect(try flat.xmlBytes(options: Self.unsorted) == expected.xmlBytes(options: Self.unsorted))
    }

    /// Keys are told apart by their bytes: "é" and "e\u{301}", or "K" and U+212A KELVIN SIGN
    /// (equal as Swift strings), stay two keys.
    @Test func keysAreToldApartByTheirBytes() throws {
        let value: Plist = [["\u{E9}": 1, "K": 2], ["e\u{301}": 3, "\u{212A}": 4], ["\u{E9}": 5, "K": 6]]
        try expectSameOutput(value)
        let flat = try #require(FlatPlist(value))
        #expect(
            flat.keys.names.map { Array($0.utf8) } == [[0xC3, 0xA9], [0x4B], [0x65, 0xCC, 0x81], [0xE2, 0x84, 0xAA]])
    }

    /// A container filled after later siblings were added holds its values in its place.
    @Test func containersFilledLateStayInPlace() throws {
        var flat = FlatPlist()
        let top = flat.addContainer(.array, to: -1, key: .none)
        let inner = flat.addContainer(.dictionary, to: top, key: .none)
        try flat.add(.string("after"), to: top, key: .none)
        try flat.add(.real(0.5), to: inner, key: .name("late"))
        let expected: Plist = [["late": 0.5], "after"]
        #expect(flat.plist(at: 0).isIdentical(to: expected))
        #expect(try flat.binaryBytes(options: .init()) == expected.binaryBytes())
        #expect(try flat.xmlBytes(options: .init()) == expected.xmlBytes())
    }

    /// A value written through a container whose node became another kind of container is
    /// left out instead of corrupting the keys.
    @Test func valuesForAReplacedContainerAreLeftOut() throws {
        var flat = FlatPlist()
        let top = flat.addContainer(.dictionary, to: -1, key: .none)
        flat.setContainer(top, to: .array)
        try flat.add(.signed(1), to: top, key: .name("stale"))
        try flat.add(.signed(2), to: top, key: .none)
        flat.setContainer(top, to: .dictionary)
        try flat.add(.signed(3), to: top, key: .none)
        #expect(flat.plist(at: 0).isIdentical(to: [:]))
        try flat.set(top, to: .string("scalar"))
        #expect(flat.plist(at: 0).isIdentical(to: "scalar"))
    }

    @Test func limitsHold() throws {
        var flat = FlatPlist()
        var node = flat.addContainer(.array, to: -1, key: .none)
        for _ in 0..<20 { node = flat.addContainer(.array, to: node, key: .none) }
        let shallow = PlistWriteOptions(maxDepth: 20)
        #expect(throws: PlistError(.tooDeep(limit: 20), at: 0)) { try flat.binaryBytes(options: shallow) }
        #expect(throws: PlistError(.tooDeep(limit: 20), at: 0)) { try flat.xmlBytes(options: shallow) }
        #expect(try flat.xmlBytes(options: PlistWriteOptions(maxDepth: 21)) == flat.plist(at: 0).xmlBytes())

        var long = FlatPlist()
        let top = long.addContainer(.array, to: -1, key: .none)
        for _ in 0..<100 { try long.add(.string(String(repeating: "x", count: 100)), to: top, key: .none) }
        let small = PlistWriteOptions(maxOutputBytes: 5_000)
        #expect(throws: PlistError(.outputTooLarge(limit: 5_000), at: 0)) { try long.xmlBytes(options: small) }
    }
}
