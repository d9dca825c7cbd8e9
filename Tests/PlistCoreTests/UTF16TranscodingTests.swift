import TestSupport
import Testing

@testable import PlistCore

/// The bulk UTF-16 transcoder against the standard library's UTF-16 parser: the same UTF-8
/// for valid text, and the offset of the same unit for text with an unpaired surrogate, in
/// either byte order, at every alignment of ASCII runs around non-ASCII units.
@Suite struct UTF16TranscodingTests {
    /// UTF-8 text, or the index of the first unit that is not read.
    enum Outcome: Equatable, Sendable {
        case text([UInt8])
        case badUnit(Int)
    }

    /// What the standard library makes of `units`: the UTF-8 bytes, or the index of the first
    /// unit it cannot decode.
    static func reference(_ units: [UInt16]) -> Outcome {
        var parser = Unicode.UTF16.ForwardParser()
        var iterator = units.makeIterator()
        var output: [UInt8] = []
        var index = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = Unicode.UTF16.decode(encoded)
                output += Array(String(Character(scalar)).utf8)
                index += encoded.count
            case .emptyInput:
                return .text(output)
            case .error:
                return .badUnit(index)
            }
        }
    }

    /// Our transcoder on `units` serialized in `bigEndian` order after `lead` bytes of other
    /// data: the UTF-8 bytes, or the index of the unit it refused.
    static func transcoded(_ units: [UInt16], bigEndian: Bool, lead: Int) -> Outcome {
        var bytes = [UInt8](repeating: 0xEE, count: lead)
        for unit in units {
            bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        bytes += [0xEE, 0xEE, 0xEE]
        var output: [UInt8] = [0x41]
        do throws(PlistError) {
            try UnicodeText.appendUTF16(
                bytes.span, from: lead, to: lead + 2 * units.count, bigEndian: bigEndian, to: &output)
            #expect(output.first == 0x41)
            return .text(Array(output.dropFirst()))
        } catch {
            #expect(error.kind == .invalidUTF16)
            return .badUnit(((error.byteOffset ?? -1) - lead) / 2)
        }
    }

    /// Units mostly ASCII in runs of random length (so runs start and end at every place in
    /// a four-unit word), with 2- and 3-byte units, surrogate pairs, and now and then a lone
    /// surrogate.
    static func randomUnits(_ rng: inout SeededRandom, invalid: Bool) -> [UInt16] {
        var units: [UInt16] = []
        for _ in 0..<Int(rng.next() % 12) {
            let run = Int(rng.next() % 11)
            units += (0..<run).map { _ in UInt16(rng.next() % 0x80) }
            switch rng.next() % 6 {
            case 0: units.append(UInt16(0x80 + rng.next() % 0x780))
            case 1: units.append(UInt16(0x800 + rng.next() % 0xD000))
            case 2: units.append(UInt16(0xE000 + rng.next() % 0x2000))
            case 3: units += [UInt16(0xD800 + rng.next() % 0x400), UInt16(0xDC00 + rng.next() % 0x400)]
            case 4: units.append(0x7F)
            default:
                if invalid { units.append(UInt16(0xD800 + rng.next() % 0x800)) }
            }
        }
        return units
    }

    @Test func agreesWithTheStandardLibraryOnRandomText() {
        var rng = SeededRandom(seed: 16)
        var failures = 0
        var cases = 0
        for round in 0..<20_000 {
            let units = Self.randomUnits(&rng, invalid: round % 2 == 0)
            let expected = Self.reference(units)
            if case .badUnit = expected { failures += 1 }
            for bigEndian in [true, false] {
                cases += 1
                let actual = Self.transcoded(units, bigEndian: bigEndian, lead: Int(rng.next() % 8))
                #expect(actual == expected, "\(units.map { String($0, radix: 16) })")
            }
        }
        // Both kinds are exercised.
        #expect(failures > 1_000 && failures < 9_000, "\(failures) invalid of 20,000")
        #expect(cases == 40_000)
    }

    @Test(arguments: [
        ([], .text([]) as Outcome),
        ([0x41, 0x42, 0x43, 0x44], .text(Array("ABCD".utf8))),
        ([0x41, 0x42, 0x43, 0x44, 0x45, 0xE9], .text(Array("ABCDE\u{E9}".utf8))),
        ([0xD83D, 0xDE00, 0x41], .text(Array("\u{1F600}A".utf8))),
        ([0x41, 0x42, 0x43, 0xD83D], .badUnit(3)),
        ([0xDE00, 0x41], .badUnit(0)),
        ([0xD83D, 0xD83D, 0xDE00], .badUnit(0)),
        ([0x41, 0x42, 0x43, 0x44, 0x100, 0x42, 0x43, 0xDC00], .badUnit(7)),
    ])
    func readsEdgeCases(units: [UInt16], expected: Outcome) {
        #expect(Self.reference(units) == expected)
        for bigEndian in [true, false] {
            #expect(Self.transcoded(units, bigEndian: bigEndian, lead: 1) == expected)
        }
    }
}
