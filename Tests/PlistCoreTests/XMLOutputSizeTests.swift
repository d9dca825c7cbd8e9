import Foundation
import TestSupport
import Testing

@testable import PlistCore

/// The XML writer sizes its output once, from the least size it measures before writing: the
/// document fits (it is not grown, each growth copying it into fresh pages), without much room
/// to spare.
@Suite struct XMLOutputSizeTests {
    /// Strings, most of them not ASCII, in an array and as keys and values of a dictionary.
    /// (Escapes are not measured: text made mostly of `&`, `<` and `>` grows once.)
    static func strings(count: Int) -> Plist {
        var rng = SeededRandom(seed: 47)
        let pieces = ["word", " ", "é", "中文", "ｱｲｳ", "😀", "ключ", "\u{FFFD}", "a\tb"]
        func text() -> String {
            (0..<Int(3 + rng.next() % 20)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
        }
        let byKey = PlistDictionary(
            uniqueKeysWithValues: (0..<count / 2).map { (text() + "·\($0)", Plist.string(text())) })
        return ["strings": .array((0..<count / 2).map { _ in .string(text()) }), "by_key": .dictionary(byKey)]
    }

    /// Values of every kind at several depths, with the longest texts numbers and dates take.
    static let everyKind: Plist = [
        "numbers": [
            .integer(PlistInteger(Int64.min)), .integer(PlistInteger(UInt64.max)), 0, -1, 1.2345678901234567e-300,
            .real(-.greatestFiniteMagnitude), 0.1,
        ],
        "dates": [
            .date(Date(timeIntervalSinceReferenceDate: -63_113_904_000)),
            .date(Date(timeIntervalSinceReferenceDate: 1)),
        ],
        "data": [.data(Data(repeating: 7, count: 1000)), ["deeper": .data(Data(0..<200))], .data(Data())],
        "uids": [.uid(0), .uid(.max), ["in": .uid(4_294_967_295)]],
        "flags": [true, false],
        "empty": [[], [:], "", ["a": ["b": [:]]]],
        "CFBundleIdentifier": "org.example.viewer",
    ]

    private func capacity(for value: Plist) throws -> Int {
        XMLWriter.capacity(for: try OutputLimit(PlistWriteOptions()).checkLeastSize(of: value, indentation: 1))
    }

    @Test(arguments: [0, 1, 40, 2000])
    func sizeHoldsTheDocumentOfStrings(count: Int) throws {
        let value = Self.strings(count: count)
        let written = try value.xmlBytes().count
        let capacity = try capacity(for: value)
        #expect(capacity >= written)
        #expect(capacity <= written + written / 8 + 256)
    }

    @Test func sizeHoldsTheDocumentOfEveryKind() throws {
        let written = try Self.everyKind.xmlBytes().count
        let capacity = try capacity(for: Self.everyKind)
        #expect(capacity >= written)
        #expect(capacity <= 2 * written)
    }

    /// A megabyte of XML comes back in a buffer about its size: grown from a few kilobytes by
    /// doubling, it took up to twice as much.
    @Test func documentComesBackInABufferAboutItsSize() throws {
        let bytes = try Self.strings(count: 24_000).xmlBytes()
        #expect(bytes.count > 1 << 20)
        #expect(bytes.capacity <= bytes.count + bytes.count / 8)
    }
}
