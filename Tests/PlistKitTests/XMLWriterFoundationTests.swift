import Foundation
import PlistKit
import TestSupport
import Testing

/// Our XML is byte for byte what Foundation's `PropertyListSerialization` writes for the same
/// value, but for the characters XML 1.0 forbids and "\r", which we write as character
/// references (`withReferences`), and dates outside the years 1 to 9999, which we refuse: every
/// valid binary file of the shared corpus, 300 seeded random values, and large sets of random
/// reals and dates. Values reach Foundation in two ways: converted to an object graph
/// (`FoundationGraph.object(for:)`, which cannot hold UIDs), and as our binary file read by
/// Foundation (which keeps UIDs and checks the conversion by another route).
@Suite struct XMLWriterFoundationTests {
    /// Foundation's XML for a graph of Foundation objects.
    static func foundationXML(_ object: Any) throws -> [UInt8] {
        withReferences([UInt8](try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0)))
    }

    /// Foundation's XML with the control characters but tab and line feed, U+FFFE and U+FFFF
    /// spelled as character references, as our writer spells them (Foundation writes them raw,
    /// which no XML parser reads back).
    static func withReferences(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20, byte != 0x09, byte != 0x0A {
                out += Array("&#\(byte);".utf8)
            } else if byte == 0xEF, index + 2 < bytes.count, bytes[index + 1] == 0xBF, bytes[index + 2] >= 0xBE {
                out += Array("&#\(bytes[index + 2] == 0xBE ? 65534 : 65535);".utf8)
                index += 2
            } else {
                out.append(byte)
            }
            index += 1
        }
        return out
    }

    /// Whether XML holds the date (the years 1 to 9999).
    static func isCalendarDate(_ seconds: Double) -> Bool {
        seconds.isFinite && seconds.rounded(.down) >= -63_113_904_000 && seconds < 252_423_993_600
    }

    /// Foundation's XML for what Foundation reads from our binary file of `value`.
    static func foundationXMLOfOurBinary(_ value: Plist) throws -> [UInt8] {
        let object = try PropertyListSerialization.propertyList(from: Data(try value.binaryBytes()), format: nil)
        return try foundationXML(object)
    }

    /// Expects identical bytes; on failure names the first line that differs.
    static func expectSame(
        _ ours: [UInt8], _ theirs: [UInt8], _ what: String = "", sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard ours != theirs else { return }
        let a = String(decoding: ours, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let b = String(decoding: theirs, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let line = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
        let show = { (lines: [Substring]) in line < lines.count ? String(lines[line]).debugDescription : "(end)" }
        Issue.record(
            "\(what) line \(line + 1): ours \(show(a)), Foundation's \(show(b))", sourceLocation: sourceLocation)
    }

    /// The corpus files with dates XML cannot hold (NaN, after 9999).
    static let unwritableCorpusFiles: Set = [
        "binary/cpython__datetime-nan.bplist", "binary/cpython__datetime-overflow.bplist",
    ]

    @Test(.needsCorpus, arguments: Corpus.validBinary)
    func matchesFoundationForCorpusFile(entry: Corpus.Entry) throws {
        let value = try Plist(binary: try Paths.bytes(entry.url))
        guard !Self.unwritableCorpusFiles.contains(entry.file) else {
            #expect(throws: PlistError.self) { try value.xmlBytes() }
            return
        }
        let ours = try value.xmlBytes()
        if !value.containsUID {
            Self.expectSame(ours, try Self.foundationXML(FoundationGraph.object(for: value)), entry.file)
        }
        Self.expectSame(ours, try Self.foundationXMLOfOurBinary(value), "\(entry.file) through binary:")
    }

    @Test(.needsCorpus) func theCorpusHasFilesWithAndWithoutUIDs() throws {
        let values = try Corpus.validBinary.map { try Plist(binary: try Paths.bytes($0.url)) }
        #expect(values.count(where: \.containsUID) >= 5)
        #expect(values.count(where: { !$0.containsUID }) >= 40)
    }

    /// Random values of every kind: UIDs (up to 32 bits, what Foundation keeps), NaN payloads,
    /// NUL and other control characters, dates in the years XML holds (`ReadBackTests` has the others).
    static let samples = (1...300).map {
        GeneratedSample(
            seed: $0,
            profile: .init(
                exoticNaNs: true, maxUID: UInt64(UInt32.max), calendarDatesOnly: true, allowsNUL: true,
                keysDistinctAsStrings: true))
    }

    @Test(arguments: samples)
    func matchesFoundationForGeneratedValue(sample: GeneratedSample) throws {
        let ours = try sample.value.xmlBytes()
        let withoutUIDs = sample.value.replacingUIDsWithIntegers
        Self.expectSame(try withoutUIDs.xmlBytes(), try Self.foundationXML(FoundationGraph.object(for: withoutUIDs)))
        Self.expectSame(ours, try Self.foundationXMLOfOurBinary(sample.value), "through binary:")
    }

    /// `%.17g` for 40,000 reals: random bit patterns (every exponent), and values of the kinds
    /// files hold (decimal fractions, integers, halves).
    @Test func matchesFoundationForRandomReals() throws {
        var random = SeededRandom(seed: 17)
        var reals: [Double] = []
        for _ in 0..<10_000 { reals.append(Double(bitPattern: random.next())) }
        for _ in 0..<10_000 { reals.append(Double.random(in: -1e6...1e6, using: &random)) }
        for _ in 0..<10_000 { reals.append(Double(Int.random(in: -1_000_000...1_000_000, using: &random)) / 100) }
        for _ in 0..<10_000 {
            let integer = Double(Int64.random(in: -(1 << 62)...(1 << 62), using: &random))
            reals.append(integer / Double(1 << Int.random(in: 0...20, using: &random)))
        }
        let value = Plist.array(reals.map(Plist.real))
        Self.expectSame(try value.xmlBytes(), try Self.foundationXML(FoundationGraph.object(for: value)))
    }

    /// CoreFoundation's calendar arithmetic for 40,000 dates: any bit pattern, and times between
    /// the years 1 and 9999 with and without a fraction.
    @Test func matchesFoundationForRandomDates() throws {
        var random = SeededRandom(seed: 1970)
        var seconds: [Double] = []
        for _ in 0..<10_000 { seconds.append(Double(bitPattern: random.next())) }
        for _ in 0..<10_000 { seconds.append(Double.random(in: -1e19...1e19, using: &random)) }
        for _ in 0..<10_000 { seconds.append(Double.random(in: -63_113_904_000...252_423_993_600, using: &random)) }
        for _ in 0..<10_000 {
            seconds.append(Double(Int64.random(in: -63_113_904_000...252_423_993_600, using: &random)))
        }
        let writable = seconds.filter(Self.isCalendarDate)
        #expect(writable.count > 20_000)
        let value = Plist.array(writable.map { .date(Date(timeIntervalSinceReferenceDate: $0)) })
        Self.expectSame(try value.xmlBytes(), try Self.foundationXML(FoundationGraph.object(for: value)))
        for seconds in seconds.filter({ !Self.isCalendarDate($0) }).prefix(2000) {
            #expect(throws: PlistError.self) {
                try Plist.date(Date(timeIntervalSinceReferenceDate: seconds)).xmlBytes()
            }
        }
    }

    /// Keys from every part of Unicode in one dictionary, sorted as CoreFoundation sorts them;
    /// half of them share their first 9 bytes, past the word the writers compare first.
    @Test func matchesFoundationsKeyOrder() throws {
        var random = SeededRandom(seed: 16)
        var entries = PlistDictionary()
        let ranges: [ClosedRange<UInt32>] = [
            0x00...0x7F, 0x80...0x7FF, 0x800...0xD7FF, 0xE000...0xFFFF, 0x10000...0x10FFFF,
        ]
        for index in 0..<5_000 {
            var key = ""
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                let range = ranges.randomElement(using: &random)!
                key.unicodeScalars.append(Unicode.Scalar(UInt32.random(in: range, using: &random)) ?? "a")
            }
            entries[index.isMultiple(of: 2) ? "à-shared-" + key : key] = .integer(PlistInteger(index))
        }
        let value = Plist.dictionary(entries)
        Self.expectSame(try value.xmlBytes(), try Self.foundationXML(FoundationGraph.object(for: value)))
    }
}

extension Plist {
}

/// Our XML reader reads what our XML writer writes back as the value, less what XML cannot
/// keep: the sign of -0.0, NaN payloads and fractions of seconds. Strings keep every character:
/// the ones XML 1.0 forbids, and "\r", are written as character references and read back.
@Suite struct XMLWriterRoundTripTests {
    @Test(arguments: (1...100).map { GeneratedSample(seed: $0, profile: .oracleSafe) })
    func ourReaderReadsOurXML(sample: GeneratedSample) throws {
        let value = sample.value.xmlSafe
        #expect(try Plist(xml: try value.xmlBytes()) == value.keptByXML)
    }
}

extension Plist {
    /// The value with dates rounded down to whole seconds (-0.0 to 0).
    fileprivate var xmlSafe: Plist {
        switch self {
        case .date(let date):
            return .date(Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.rounded(.down) + 0))
        case .array(let elements): return .array(elements.map(\.xmlSafe))
        case .dictionary(let entries): return .dictionary(entries.mapValues(\.xmlSafe))
        default: return self
        }
    }

    /// The value as XML keeps it: every NaN is the default NaN, -0.0 is 0.
    fileprivate var keptByXML: Plist {
        switch self {
        case .real(let real): .real(real.isNaN ? .nan : real == 0 ? 0 : real)
        case .array(let elements): .array(elements.map(\.keptByXML))
        case .dictionary(let entries): .dictionary(entries.mapValues(\.keptByXML))
        default: self
        }
    }
}
