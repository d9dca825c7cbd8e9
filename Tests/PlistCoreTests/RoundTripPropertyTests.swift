import Foundation
import PlistCore
import PropertyBased
import TestSupport
import Testing

/// Random values (`PlistGenerator`: every kind, edge cases drawn often, repeated scalars) survive
/// the binary writer and reader unchanged, keys in order and spelled byte for byte; the writer
/// is deterministic; and its output has exactly the size the format needs: each distinct scalar
/// and each container instance stored once, every count, integer, reference and offset in the
/// fewest bytes allowed.
@Suite struct RoundTripPropertyTests {
    static let values = Generator { rng in PlistGenerator().value(using: &rng) }

    @Test func readingWhatWasWrittenGivesTheSameValue() async throws {
        await propertyCheck(count: 250, input: Self.values) { value in
            let bytes = try value.binaryBytes()
            let back = try Plist(binary: bytes)
            #expect(back.isIdentical(to: value))
            #expect(try value.binaryBytes() == bytes, "writing twice gives the same bytes")
        }
    }

    @Test func rewritingTheReadBackValueGivesTheSameBytes() async throws {
        await propertyCheck(count: 250, input: Self.values) { value in
            let bytes = try value.binaryBytes()
            #expect(try Plist(binary: bytes).binaryBytes() == bytes)
        }
    }

    @Test func outputHasTheMinimalLayout() async throws {
        await propertyCheck(count: 250, input: Self.values) { value in
            let bytes = try value.binaryBytes()
            #expect(try BinaryLayout(of: bytes) == BinaryLayout.minimal(for: value))
        }
    }

    /// Fixed values covering every edge case at least once, whatever the random draws do.
    static let edgeCases: [Plist] = {
        var cases: [Plist] = [
            .string(""), .string("\u{E9}"), .string("e\u{301}"), .array([.string("\u{E9}"), .string("e\u{301}")]),
            .dictionary(["\u{E9}": .string("e\u{301}"), "e": .string("\u{E9}")]), .dictionary(["e\u{301}": 1]),
            .string("\u{1F600}"), .string(String(repeating: "x", count: 15)),
            .string(String(repeating: "\u{E9}", count: 15)),
            .string("a\u{0}b"), .data(Data()), .data(Data(repeating: 7, count: 16)), .data(Data(count: 256)),
            .array([]), .dictionary([:]), .bool(false), .bool(true), [[], [:], [], ["a": [:]], [[]]],
            .array([
                .real(0), .real(-0.0), .date(Date(timeIntervalSinceReferenceDate: 0)),
                .date(Date(timeIntervalSinceReferenceDate: -0.0)), .integer(0), .uid(0), .string("0"), .bool(false),
            ]),
        ]
        let integers: [PlistInteger] = [
            0, 255, 256, 65535, 65536, 0xFFFF_FFFF, 0x1_0000_0000, -1, PlistInteger(Int64.min), PlistInteger(Int64.max),
            PlistInteger(UInt64(Int64.max) + 1), PlistInteger(UInt64.max),
        ]
        cases += integers.map { .integer($0) }
        let reals: [Double] = [
            -0.0, .nan, -.nan, .signalingNaN, Double(nan: 0x1234, signaling: false), .infinity, -.infinity,
            .leastNonzeroMagnitude, .leastNormalMagnitude.nextDown, .greatestFiniteMagnitude,
        ]
        cases += reals.map { .real($0) }
        cases += [0.5, -0.5, -978307200.25, .nan, -.nan, .infinity, -1e15].map {
            .date(Date(timeIntervalSinceReferenceDate: $0))
        }
        cases += [0, 255, 256, 65535, 65536, 0xFFFF_FFFF, 0x1_0000_0000, UInt64.max].map { .uid($0) }
        for count in [14, 15, 16, 255, 256, 65536] {
            cases.append(.array((0..<count).map { .integer(PlistInteger($0)) }))
            cases.append(
                .dictionary(PlistDictionary(uniqueKeysWithValues: (0..<count).map { ("k\($0)", Plist.bool(true)) })))
        }
        cases.append(.array(Array(repeating: .string("same"), count: 300)))
        return cases
    }()

    /// An edge case, shown by the start of its description.
    struct EdgeCase: Sendable, CustomTestStringConvertible {
        let value: Plist
        var testDescription: String {
            let text = value.description
            return text.count <= 80 ? text : text.prefix(77) + "..."
        }
    }

    @Test(arguments: edgeCases.map(EdgeCase.init))
    func edgeCaseRoundTripsWithTheMinimalLayout(edgeCase: EdgeCase) throws {
        let value = edgeCase.value
        let bytes = try value.binaryBytes()
        #expect(try Plist(binary: bytes).isIdentical(to: value))
        #expect(try BinaryLayout(of: bytes) == BinaryLayout.minimal(for: value))
    }
}

/// The size and trailer of a binary property list: what `minimal(for:)` predicts from the value
/// alone, and what `init(of:)` reads from written bytes.
struct BinaryLayout: Equatable, CustomStringConvertible {
    var size: Int
    var objectCount: Int
    var referenceSize: Int
    var offsetSize: Int
    var offsetTableStart: Int

    var description: String {
        "\(size) bytes, \(objectCount) objects, refs of \(referenceSize), offsets of \(offsetSize) at \(offsetTableStart)"
    }

    /// The layout given by the trailer of `bytes` (with the file's actual size).
    init(of bytes: [UInt8]) throws {
        let trailer = try #require(bytes.count >= 40 ? bytes.suffix(32) : nil)
        func integer(at offset: Int) -> Int {
            trailer.dropFirst(offset).prefix(8).reduce(0) { $0 << 8 | Int($1) }
        }
        self.init(
            size: bytes.count, objectCount: integer(at: 8), referenceSize: Int(trailer[trailer.startIndex + 7]),
            offsetSize: Int(trailer[trailer.startIndex + 6]), offsetTableStart: integer(at: 24))
        #expect(integer(at: 16) == 0, "the top object is object 0")
    }

    init(size: Int, objectCount: Int, referenceSize: Int, offsetSize: Int, offsetTableStart: Int) {
        self.size = size
        self.objectCount = objectCount
        self.referenceSize = referenceSize
        self.offsetSize = offsetSize
        self.offsetTableStart = offsetTableStart
    }

    /// The smallest `bplist00` layout for `value` when every distinct scalar (by its exact
    /// encoding; keys are strings) is stored once and every container instance once.
    ///
    /// The writer tells container instances apart by their storage. Here every non-empty
    /// container is taken as its own instance (true of generated and literal values, which
    /// share no containers) and all empty arrays as one instance, as all empty dictionaries
    /// (Swift gives every empty collection the same storage).
    static func minimal(for value: Plist) -> BinaryLayout {
        var scalars: [ScalarIdentity: Int] = [:]  // identity -> encoded size
        var containerCount = 0
        var referenceSlots = 0
        var containerHeaders = 0
        var hasEmptyArray = false
        var hasEmptyDictionary = false
        func visit(_ value: Plist) {
            switch value {
            case .array(let elements) where elements.isEmpty:
                hasEmptyArray = true
            case .dictionary(let entries) where entries.isEmpty:
                hasEmptyDictionary = true
            case .array(let elements):
                containerCount += 1
                referenceSlots += elements.count
                containerHeaders += 1 + lengthSize(elements.count)
                elements.forEach(visit)
            case .dictionary(let entries):
                containerCount += 1
                referenceSlots += 2 * entries.count
                containerHeaders += 1 + lengthSize(entries.count)
                for key in entries.keys { scalars[ScalarIdentity(.string(key))] = encodedSize(.string(key)) }
                entries.values.forEach(visit)
            default:
                scalars[ScalarIdentity(value)] = encodedSize(value)
            }
        }
        visit(value)
        for seen in [hasEmptyArray, hasEmptyDictionary] where seen {
            containerCount += 1
            containerHeaders += 1
        }
        let objectCount = scalars.count + containerCount
        let referenceSize = bytesHolding(objectCount)
        let offsetTableStart = 8 + scalars.values.reduce(0, +) + containerHeaders + referenceSlots * referenceSize
        let offsetSize = bytesHolding(offsetTableStart)
        return BinaryLayout(
            size: offsetTableStart + objectCount * offsetSize + 32, objectCount: objectCount,
            referenceSize: referenceSize, offsetSize: offsetSize, offsetTableStart: offsetTableStart)
    }

    /// A scalar as the binary format tells it apart: strings by their exact UTF-8 bytes, reals
    /// and dates by their bits, integers and UIDs as different kinds.
    private struct ScalarIdentity: Hashable {
        var kind: Int
        var bytes: [UInt8]

        init(_ value: Plist) {
            switch value {
            case .string(let string): (kind, bytes) = (0, Array(string.utf8))
            case .integer(let integer): (kind, bytes) = (integer.isNegativeValue ? 1 : 2, bits(integer.bitPattern))
            case .real(let real): (kind, bytes) = (3, bits(real.bitPattern))
            case .bool(let bool): (kind, bytes) = (4, [bool ? 1 : 0])
            case .date(let date): (kind, bytes) = (5, bits(date.timeIntervalSinceReferenceDate.bitPattern))
            case .data(let data): (kind, bytes) = (6, Array(data))
            case .uid(let uid): (kind, bytes) = (7, bits(uid))
            case .array, .dictionary: preconditionFailure("containers are not scalars")
            }
        }
    }

    /// The size of a scalar object: marker, length, payload.
    private static func encodedSize(_ value: Plist) -> Int {
        switch value {
        case .string(let string) where string.utf8.allSatisfy({ $0 < 0x80 }):
            1 + lengthSize(string.utf8.count) + string.utf8.count
        case .string(let string): 1 + lengthSize(string.utf16.count) + 2 * string.utf16.count
        case .integer(let integer):
            if let value = integer.uint64 { 1 + (value > UInt64(Int64.max) ? 16 : powerOfTwoBytes(value)) } else { 9 }
        case .real, .date: 9
        case .bool: 1
        case .data(let data): 1 + lengthSize(data.count) + data.count
        case .uid(let uid): 1 + powerOfTwoBytes(uid)
        case .array, .dictionary: preconditionFailure("containers are not scalars")
        }
    }

    /// Extra bytes for a count: none below 15, else an integer object after the marker.
    private static func lengthSize(_ count: Int) -> Int {
        count < 15 ? 0 : 1 + powerOfTwoBytes(UInt64(count))
    }

    /// 1, 2, 4 or 8: the fewest bytes of an integer or UID object that hold `value`.
    private static func powerOfTwoBytes(_ value: UInt64) -> Int {
        value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
    }

    /// The fewest bytes (1...8) whose range includes `value` (the trailer's widths must hold the
    /// object count and the offset table's start).
    private static func bytesHolding(_ value: Int) -> Int {
        max(1, (64 - UInt64(value).leadingZeroBitCount + 7) / 8)
    }
}

private func bits(_ value: UInt64) -> [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
}
