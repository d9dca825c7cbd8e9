import Foundation
import PlistCore
import Testing

/// The binary reader on hand-made files: every object type and width, and every way a file
/// can be wrong, each with its exact error and byte offset.
@Suite struct BinaryReaderTests {
    private func read(_ bytes: [UInt8], _ options: PlistReadOptions = .init()) throws(PlistError) -> Plist {
        try Plist(binary: bytes, options: options)
    }

    private func error(_ bytes: [UInt8], _ options: PlistReadOptions = .init()) throws -> PlistError {
        try #require(throws: PlistError.self) { try read(bytes, options) }
    }

    @Test(arguments: 1...8, 1...8)
    func readsEveryOffsetAndReferenceWidth(offsetSize: Int, referenceSize: Int) throws {
        var builder = BinaryBuilder(objects: [], offsetSize: offsetSize, referenceSize: referenceSize)
        builder.objects = [builder.container(0xD0, [1, 2]), BinaryBuilder.ascii("key"), [0x10, 42]]
        #expect(try read(builder.bytes()) == ["key": 42])
    }

    @Test func readsIntegersOfEveryWidth() throws {
        let cases: [([UInt8], Plist)] = [
            ([0x10, 0xFF], 255),
            ([0x11, 0xFF, 0xFE], 65534),
            ([0x12, 0xFF, 0xFF, 0xFF, 0xFF], 4_294_967_295),
            ([0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE], -2),
            ([0x13, 0x80, 0, 0, 0, 0, 0, 0, 0], .integer(PlistInteger(Int64.min))),
            (
                [0x14] + [UInt8](repeating: 0, count: 8) + [UInt8](repeating: 0xFF, count: 8),
                .integer(PlistInteger(UInt64.max))
            ),
            ([0x14] + [UInt8](repeating: 0xFF, count: 16), -1),
            ([0x14] + [UInt8](repeating: 0, count: 15) + [7], 7),
        ]
        for (object, expected) in cases {
            #expect(try read(BinaryBuilder(objects: [object]).bytes()) == expected)
        }
    }

    @Test func rejects128BitIntegersOutsideTheRange() throws {
        let tooLarge = [0x14, 0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 8)
        #expect(try error(BinaryBuilder(objects: [tooLarge]).bytes()) == PlistError(.numberOutOfRange, at: 8))
        let tooSmall = [0x14] + [UInt8](repeating: 0xFF, count: 8) + [0x7F] + [UInt8](repeating: 0, count: 7)
        #expect(try error(BinaryBuilder(objects: [tooSmall]).bytes()) == PlistError(.numberOutOfRange, at: 8))
    }

    @Test func readsRealsDatesDataBooleansAndUIDs() throws {
        let float32 = [0x22] + BinaryBuilder.bigEndian(UInt64(Float(1.5).bitPattern), width: 4)
        #expect(try read(BinaryBuilder(objects: [float32]).bytes()) == 1.5)
        let float64 = [0x23] + BinaryBuilder.bigEndian((-0.0).bitPattern, width: 8)
        #expect(try read(BinaryBuilder(objects: [float64]).bytes()) == .real(-0.0))
        let date = [0x33] + BinaryBuilder.bigEndian((-1.25).bitPattern, width: 8)
        #expect(try read(BinaryBuilder(objects: [date]).bytes()) == .date(Date(timeIntervalSinceReferenceDate: -1.25)))
        let data: [UInt8] = [0x4F, 0x10, 16] + Array(0..<16)
        #expect(try read(BinaryBuilder(objects: [data]).bytes()) == .data(Data(0..<16)))
        #expect(try read(BinaryBuilder(objects: [[0x09]]).bytes()) == true)
        #expect(try read(BinaryBuilder(objects: [[0x08]]).bytes()) == false)
        #expect(try read(BinaryBuilder(objects: [[0x82, 1, 2, 3]]).bytes()) == .uid(0x010203))
        #expect(try read(BinaryBuilder(objects: [[0x87] + [UInt8](repeating: 0xFF, count: 8)]).bytes()) == .uid(.max))
    }

    @Test func readsUTF16StringsWithSurrogatePairs() throws {
        let text = "h\u{E9}llo \u{1F600}"
        let units = Array(text.utf16)
        let object = [0x60 | UInt8(units.count)] + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        #expect(try read(BinaryBuilder(objects: [object]).bytes()) == .string(text))
    }

    @Test func readsSetsAsArraysAndExtendedCounts() throws {
        var builder = BinaryBuilder(objects: [])
        builder.objects = [builder.container(0xC0, Array(repeating: 1, count: 20)), [0x10, 3]]
        #expect(try read(builder.bytes()) == .array(Array(repeating: 3, count: 20)))
    }

    @Test func laterDuplicateKeysWinAndKeepTheFirstPosition() throws {
        var builder = BinaryBuilder(objects: [])
        builder.objects = [
            builder.container(0xD0, [1, 2, 1, 3, 4, 5]), BinaryBuilder.ascii("a"), BinaryBuilder.ascii("b"),
            [0x10, 1], [0x10, 2], [0x10, 3],
        ]
        let value = try read(builder.bytes())
        #expect(value.dictionary?.keys.elementsEqual(["a", "b"]) == true)
        #expect(value == ["a": 3, "b": 2])
    }

    /// A key text written as two objects (as writers that do not unique strings do): the later
    /// value wins and the key keeps its first position, whether the keys are read once (compared
    /// in pairs up to 15 keys, hashed past that) or shared with another dictionary (key numbers).
    @Test(arguments: [(2, false), (14, false), (15, false), (40, false), (2, true), (14, true), (40, true)])
    func aKeyTextInTwoObjectsIsOneKey(count: Int, shared: Bool) throws {
        var builder = BinaryBuilder(objects: [])
        builder.offsetSize = 2
        // Object 0 the top array, then: the dictionary, its `count` key objects, one more key
        // object repeating the text of the middle key, and the value objects 0...count.
        let dictionary = 1
        let firstKey = 2
        let repeatedKey = firstKey + count
        let firstValue = repeatedKey + 1
        var keyRefs = Array(firstKey..<repeatedKey)
        keyRefs.insert(repeatedKey, at: count - 1)
        let valueRefs = Array(firstValue..<firstValue + count + 1)
        // Shared keys: a second dictionary uses the same key objects.
        builder.objects.append(builder.container(0xA0, shared ? [dictionary, firstValue + count + 1] : [dictionary]))
        builder.objects.append(builder.container(0xD0, keyRefs + valueRefs))
        for index in 0..<count { builder.objects.append(BinaryBuilder.ascii("key\(index)")) }
        builder.objects.append(BinaryBuilder.ascii("key\(count / 2)"))
        for value in 0...count { builder.objects.append([0x10, UInt8(value)]) }
        if shared { builder.objects.append(builder.container(0xD0, keyRefs + valueRefs)) }

        let value = try read(builder.bytes())
        var expected = PlistDictionary()
        for (index, key) in keyRefs.enumerated() {
            expected["key\(key == repeatedKey ? count / 2 : key - firstKey)"] = Plist(index)
        }
        #expect(value[0] == .dictionary(expected))
        #expect(value[0]?.dictionary?.keys.elementsEqual(expected.keys) == true)
        #expect(expected.count == count)
        if shared { #expect(value[1] == .dictionary(expected)) }
    }

    @Test func sharedContainersAreDecodedOnce() throws {
        // 40 levels of [previous, previous]: 2^41 values when expanded.
        var builder = BinaryBuilder(objects: [[0x10, 1]])
        for level in 1...40 { builder.objects.append(builder.container(0xA0, [level - 1, level - 1])) }
        builder.top = 40
        let bytes = builder.bytes()
        #expect(try error(bytes) == PlistError(.tooManyObjects(limit: 1 << 24), at: bytes.count - 32 - 41 - 3 * 17))
        // Within the limit, the same shape reads and is shared, not copied.
        builder.objects.removeLast(40 - 10)
        builder.top = 10
        let value = try read(builder.bytes())
        var leaves = value
        for _ in 0..<10 { leaves = leaves[1]! }
        #expect(leaves == 1)
    }

    @Test func limitsTheContentSharedReferencesStandFor() throws {
        var builder = BinaryBuilder(objects: [])
        builder.objects = [
            builder.container(0xA0, Array(repeating: 1, count: 100)), BinaryBuilder.ascii("fourteen bytes"),
        ]
        let bytes = builder.bytes()
        #expect(try read(bytes, PlistReadOptions(maxContentBytes: 1400)).count == 100)
        #expect(
            try error(bytes, PlistReadOptions(maxContentBytes: 1399)) == PlistError(.tooMuchContent(limit: 1399), at: 8)
        )
        let data = BinaryBuilder(objects: [[0x4F, 0x10, 100] + [UInt8](repeating: 1, count: 100)]).bytes()
        #expect(try error(data, PlistReadOptions(maxContentBytes: 99)) == PlistError(.tooMuchContent(limit: 99), at: 8))
    }

    @Test func rejectsBadHeaders() throws {
        #expect(try error([]) == PlistError(.emptyInput, at: 0))
        #expect(try error(Array("bpl".utf8)) == PlistError(.truncated(what: "the header"), at: 3))
        #expect(try error(Array("xplist00".utf8)) == PlistError(.badMagic, at: 0))
        #expect(
            try error(Array("bplist10".utf8) + [UInt8](repeating: 0, count: 40))
                == PlistError(.unsupportedVersion("10"), at: 6))
        #expect(
            try error(Array("bplist00".utf8) + [0x08]) == PlistError(.truncated(what: "the 32-byte trailer"), at: 9))
    }

    @Test func acceptsOtherMinorVersionsAsCoreFoundationDoes() throws {
        var bytes = BinaryBuilder(objects: [[0x09]]).bytes()
        bytes[7] = UInt8(ascii: "1")
        #expect(try read(bytes) == true)
    }

    @Test func rejectsImpossibleTrailers() throws {
        let good = BinaryBuilder(objects: [[0x09]]).bytes()
        let trailer = good.count - 32
        func with(_ change: (inout [UInt8]) -> Void) -> [UInt8] {
            var bytes = good
            change(&bytes)
            return bytes
        }
        #expect(
            try error(with { $0[trailer + 6] = 9 })
                == PlistError(.invalidTrailer(field: "offset size", value: 9), at: trailer + 6))
        #expect(
            try error(with { $0[trailer + 7] = 0 })
                == PlistError(.invalidTrailer(field: "object reference size", value: 0), at: trailer + 7))
        #expect(
            try error(with { $0[trailer + 15] = 0 })
                == PlistError(.invalidTrailer(field: "object count", value: 0), at: trailer + 8))
        #expect(
            try error(with { $0[trailer + 23] = 1 })
                == PlistError(.referenceOutOfRange(1, objectCount: 1), at: trailer + 16))
        #expect(
            try error(with { $0[trailer + 31] = 8 })
                == PlistError(.invalidTrailer(field: "offset table offset", value: 8), at: trailer + 24))
        #expect(
            try error(with { $0[trailer + 31] = 10 })
                == PlistError(.misplacedOffsetTable(tableOffset: 10, objectCount: 1, offsetSize: 1), at: trailer + 24))
        let overflowing = with {
            $0[trailer + 6] = 8
            $0[trailer + 7] = 8
            $0[trailer + 8] = 0x20
        }
        #expect(
            try error(overflowing)
                == PlistError(
                    .misplacedOffsetTable(tableOffset: 9, objectCount: 0x2000_0000_0000_0001, offsetSize: 8),
                    at: trailer + 24))
    }

    @Test func rejectsMoreObjectsThanReferencesReach() throws {
        var builder = BinaryBuilder(objects: Array(repeating: [0x09], count: 256), offsetSize: 2)
        builder.referenceSize = 1
        let bytes = builder.bytes()
        #expect(
            try error(bytes)
                == PlistError(
                    .invalidTrailer(field: "object count (more than 1-byte references reach)", value: 256),
                    at: bytes.count - 24))
    }

    @Test func rejectsOffsetsOutsideTheObjectArea() throws {
        let intoHeader = BinaryBuilder(objects: [[0x09]]).bytes { $0[0] = 3 }
        #expect(try error(intoHeader) == PlistError(.objectOffsetOutOfRange(object: 0, offset: 3), at: 9))
        let intoTable = BinaryBuilder(objects: [[0x09], [0x08]]).bytes { $0[1] = 10 }
        #expect(try error(intoTable) == PlistError(.objectOffsetOutOfRange(object: 1, offset: 10), at: 11))
    }

    @Test func rejectsBadReferences() throws {
        var builder = BinaryBuilder(objects: [])
        builder.objects = [builder.container(0xA0, [1, 7]), [0x09]]
        #expect(try error(builder.bytes()) == PlistError(.referenceOutOfRange(7, objectCount: 2), at: 10))
    }

    @Test func rejectsObjectsThatRunIntoTheOffsetTable() throws {
        #expect(
            try error(BinaryBuilder(objects: [[0x13, 0, 0]]).bytes())
                == PlistError(.truncated(what: "an integer"), at: 8))
        #expect(
            try error(BinaryBuilder(objects: [[0x55, 0x61]]).bytes())
                == PlistError(.lengthPastEnd(count: 5, unit: 1), at: 8))
        #expect(
            try error(BinaryBuilder(objects: [[0x6F, 0x12, 0xFF, 0xFF, 0xFF, 0xFF]]).bytes())
                == PlistError(.lengthPastEnd(count: 0xFFFF_FFFF, unit: 2), at: 8))
        #expect(
            try error(BinaryBuilder(objects: [[0x4F, 0x13] + [UInt8](repeating: 0xFF, count: 8)]).bytes())
                == PlistError(.lengthPastEnd(count: .max, unit: 1), at: 8))
        #expect(try error(BinaryBuilder(objects: [[0xAF, 0x14, 1]]).bytes()) == PlistError(.invalidLength, at: 9))
    }

    @Test(arguments: [0x00, 0x0F, 0x15, 0x21, 0x34, 0x70, 0x88, 0x90, 0xB0, 0xE0, 0xF0] as [UInt8])
    func rejectsUnknownMarkers(marker: UInt8) throws {
        let bytes = BinaryBuilder(objects: [[marker] + [UInt8](repeating: 0, count: 16)]).bytes()
        #expect(try error(bytes) == PlistError(.invalidMarker(marker), at: 8))
    }

    @Test func rejectsBadStrings() throws {
        #expect(
            try error(BinaryBuilder(objects: [[0x53, 0x61, 0xC3, 0xA9]]).bytes()) == PlistError(.nonASCIIString, at: 10)
        )
        #expect(
            try error(BinaryBuilder(objects: [[0x62, 0x00, 0x61, 0xDC, 0x00]]).bytes())
                == PlistError(.invalidUTF16, at: 11))
        #expect(try error(BinaryBuilder(objects: [[0x61, 0xD8, 0x3D]]).bytes()) == PlistError(.invalidUTF16, at: 9))
    }

    /// Dictionaries with the same key references (how writers store records of one shape)
    /// share one copy of their keys, hash table included, and read as they would alone.
    @Test func dictionariesWithTheSameKeysShareThem() throws {
        let names = (0..<20).map { "a key longer than fifteen bytes \($0)" }
        var builder = BinaryBuilder(objects: [], offsetSize: 2, referenceSize: 2)
        // 0: [1, 2, 3]; 1, 2: the 20 keys (4...23) with values 24... and 44...; 3: the keys reversed.
        let keys = Array(4..<24)
        builder.objects = [
            builder.container(0xA0, [1, 2, 3]), builder.container(0xD0, keys + Array(24..<44)),
            builder.container(0xD0, keys + Array(44..<64)), builder.container(0xD0, keys.reversed() + Array(24..<44)),
        ]
        builder.objects += names.map { [0x5F, 0x10, UInt8($0.utf8.count)] + Array($0.utf8) }
        builder.objects += (0..<40).map { [0x10, UInt8($0)] }
        let value = try read(builder.bytes())
        let first = try #require(value[0]?.dictionary)
        var second = try #require(value[1]?.dictionary)
        let reversed = try #require(value[2]?.dictionary)
        func numbered(from start: Int) -> PlistDictionary {
            PlistDictionary(uniqueKeysWithValues: names.enumerated().map { ($1, Plist.integer(.init(start + $0))) })
        }
        #expect(first == numbered(from: 0) && second == numbered(from: 20))
        #expect(Array(reversed.keys) == names.reversed())
        #expect(reversed[names[3]] == 16 && second[names[19]] == 39 && second["absent"] == nil)
        #expect(first.keyStorage === second.keyStorage)
        #expect(first.keyStorage !== reversed.keyStorage)
        // Still values: changing one leaves the other alone.
        second["new"] = true
        second[names[0]] = nil
        #expect(first.count == 20 && first[names[0]] == 0 && second.count == 20 && second["new"] == true)
    }

    /// A dictionary whose keys are shared with an earlier one meets the limits and reports its
    /// errors exactly as the same dictionary with keys of its own.
    @Test(arguments: [
        PlistReadOptions(), PlistReadOptions(maxDepth: 1), PlistReadOptions(maxDepth: 2),
        PlistReadOptions(maxObjects: 10), PlistReadOptions(maxContentBytes: 9),
    ])
    func aDictionaryWithSharedKeysReadsAsItWouldAlone(options: PlistReadOptions) throws {
        // [{"key": 1}, {"key": 2, "k2": X}]: with the second dictionary's keys the first's
        // (objects 3, 7), or its own objects of the same text (8, 9), at the same offsets.
        for value: [UInt8] in [[0x10, 2], [0x70], [0xA1, 0], [0xA1, 1], [0xA2, 1, 1]] {
            var shared = BinaryBuilder(objects: [])
            shared.objects = [
                shared.container(0xA0, [1, 2]), shared.container(0xD0, [3, 7, 4, 6]),
                shared.container(0xD0, [3, 7, 5, 6]),
                BinaryBuilder.ascii("key"), [0x10, 1], value, [0x09], BinaryBuilder.ascii("k2"),
            ]
            var alone = shared
            alone.objects[2] = alone.container(0xD0, [8, 9, 5, 6])
            alone.objects += [BinaryBuilder.ascii("key"), BinaryBuilder.ascii("k2")]
            let sharedResult = Result { () throws(PlistError) in try read(shared.bytes(), options) }
            let aloneResult = Result { () throws(PlistError) in try read(alone.bytes(), options) }
            #expect(sharedResult == aloneResult, "value \(value), \(options)")
        }
    }

    @Test func rejectsNonStringKeys() throws {
        var builder = BinaryBuilder(objects: [])
        builder.objects = [builder.container(0xD0, [1, 1]), [0x10, 1]]
        #expect(try error(builder.bytes()) == PlistError(.nonStringKey(marker: 0x10), at: 11))
    }

    @Test func rejectsCycles() throws {
        var direct = BinaryBuilder(objects: [])
        direct.objects = [direct.container(0xA0, [0])]
        #expect(try error(direct.bytes()) == PlistError(.cycle(object: 0), at: 8))
        var indirect = BinaryBuilder(objects: [])
        indirect.objects = [indirect.container(0xD0, [1, 2]), BinaryBuilder.ascii("k"), indirect.container(0xA0, [0])]
        #expect(try error(indirect.bytes()) == PlistError(.cycle(object: 0), at: 8))
    }

    @Test func enforcesTheDepthLimitEvenThroughSharedContainers() throws {
        var builder = BinaryBuilder(objects: [[0x09]])
        for level in 1...5 { builder.objects.append(builder.container(0xA0, [level - 1])) }
        builder.top = 5
        #expect(try read(builder.bytes(), PlistReadOptions(maxDepth: 5)) == [[[[[true]]]]])
        #expect(try error(builder.bytes(), PlistReadOptions(maxDepth: 4)).kind == .tooDeep(limit: 4))
        // Object 2 is first met shallow (inside 6), then deep (inside 5 → 4 → 3): the limit still holds.
        builder.objects.append(builder.container(0xA0, [2, 5]))
        builder.top = 6
        #expect(try error(builder.bytes(), PlistReadOptions(maxDepth: 5)).kind == .tooDeep(limit: 5))
        #expect(try read(builder.bytes(), PlistReadOptions(maxDepth: 6)) == [[[true]], [[[[[true]]]]]])
    }

    @Test func aDeeplyNestedFileIsRejectedWithoutExhaustingTheStack() throws {
        var builder = BinaryBuilder(objects: [[0x09]], offsetSize: 3, referenceSize: 3)
        for level in 1...100_000 { builder.objects.append(builder.container(0xA0, [level - 1])) }
        builder.top = 100_000
        #expect(try error(builder.bytes()).kind == .tooDeep(limit: 512))
    }
}
