import Foundation
import PlistKit
import TestSupport
import Testing

/// XML dates, compared with Foundation in this process: `PlistEncoder` and `PlistDecoder` follow
/// Foundation's coders (the Julian calendar before 1582-10-15, every field carrying), and
/// `Plist(xml:)` and the tree's XML writer follow `PropertyListSerialization` (CoreFoundation:
/// the proleptic Gregorian calendar). Both read out-of-range fields (`2024-01-32`) as the API
/// they follow does.
@Suite struct CodableDateTests {
    /// An XML document of one array holding `dates` as `<date>` text.
    private static func document(_ dates: [String]) -> Data {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <array>

            """
        for date in dates { text += "\t<date>\(date)</date>\n" }
        return Data((text + "</array>\n</plist>\n").utf8)
    }

    /// Date text with every field drawn from its whole two-digit range (and years of 1 to 6
    /// digits, some with a sign), plus the cases the issue names.
    private static let fieldTexts: [String] = {
        var random = SeededRandom(seed: 36)
        func two(_ range: ClosedRange<Int>) -> String {
            let value = Int.random(in: range, using: &random)
            return value < 10 ? "0\(value)" : "\(value)"
        }
        var texts = [
            "1000-01-01T00:00:00Z", "1582-10-04T23:59:59Z", "1582-10-10T00:00:00Z", "1582-10-15T00:00:00Z",
            "2024-01-32T20:43:14Z", "2024-02-30T00:00:00Z", "2024-00-01T00:00:00Z", "2024-13-01T00:00:00Z",
            "2024-14-01T00:00:00Z", "2024-99-99T99:99:99Z", "0000-00-00T00:00:00Z", "0000-12-30T00:00:00Z",
            "0001-01-01T00:00:00Z", "-0001-01-01T00:00:00Z", "--01-01T00:00:00Z", "10000-01-01T00:00:00Z",
            "506714-12-31T23:59:59Z", "506715-01-01T00:00:00Z", "-506715-01-01T00:00:00Z",
            "9999999999-03-01T00:00:00Z", "1-01-01T00:00:00Z", "1500-02-29T00:00:00Z", "1900-02-29T00:00:00Z",
        ]
        for _ in 0..<1500 {
            let digits = [1, 2, 3, 4, 4, 4, 4, 4, 5, 6].randomElement(using: &random)!
            var year = String(Int.random(in: 0..<Int(pow(10, Double(digits))), using: &random))
            year = String(repeating: "0", count: max(0, digits - year.count)) + year
            if Int.random(in: 0..<8, using: &random) == 0 { year = "-" + year }
            let month = Int.random(in: 0..<4, using: &random) == 0 ? two(0...99) : two(1...12)
            let day = Int.random(in: 0..<4, using: &random) == 0 ? two(0...99) : two(1...31)
            let time =
                Int.random(in: 0..<4, using: &random) == 0
                ? [two(0...99), two(0...99), two(0...99)] : [two(0...23), two(0...59), two(0...60)]
            texts.append("\(year)-\(month)-\(day)T\(time[0]):\(time[1]):\(time[2])Z")
        }
        return texts
    }()

    @Test func decodesDatesAsFoundationsDecoder() throws {
        let data = Self.document(Self.fieldTexts)
        let ours = try PlistDecoder().decode([Date].self, from: data)
        let foundation = try PropertyListDecoder().decode([Date].self, from: data)
        for (index, text) in Self.fieldTexts.enumerated() {
            #expect(
                ours[index].timeIntervalSinceReferenceDate.bitPattern
                    == foundation[index].timeIntervalSinceReferenceDate.bitPattern,
                "\(text): \(ours[index].timeIntervalSinceReferenceDate) != \(foundation[index].timeIntervalSinceReferenceDate)"
            )
        }
        // Through libxml2 too (the scanner declines a comment inside a value).
        let declined = Data(String(decoding: data, as: UTF8.self).replacing("<array>", with: "<array><!-- x -->").utf8)
        let throughTree = try PlistDecoder().decode([Date].self, from: declined)
        #expect(throughTree.map(\.timeIntervalSinceReferenceDate) == ours.map(\.timeIntervalSinceReferenceDate))
    }

    @Test func readsDatesAsPropertyListSerialization() throws {
        let data = Self.document(Self.fieldTexts)
        let ours = try Plist(bytes: [UInt8](data))
        let foundation = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [Date])
        for (index, text) in Self.fieldTexts.enumerated() {
            let seconds = try #require(ours[index]?.date).timeIntervalSinceReferenceDate
            #expect(
                seconds.bitPattern == foundation[index].timeIntervalSinceReferenceDate.bitPattern,
                "\(text): \(seconds) != \(foundation[index].timeIntervalSinceReferenceDate)")
        }
    }

    /// A year past 64 bits: Foundation's decoder refuses it, and so does ours.
    @Test func aYearPast64BitsIsRefusedByTheDecoder() throws {
        let data = Self.document(["99999999999999999999-01-01T00:00:00Z"])
        #expect(throws: DecodingError.self) { try PropertyListDecoder().decode([Date].self, from: data) }
        let error = try #require(throws: DecodingError.self) { try PlistDecoder().decode([Date].self, from: data) }
        guard case .dataCorrupted = error else {
            Issue.record("\(error)")
            return
        }
    }

    /// Malformed text is refused by both APIs of both libraries.
    @Test(arguments: [
        "2024-1-01T00:00:00Z", " 2024-01-01T00:00:00Z", "2024-01-01T00:00:00", "2024-01-01T00:00:00Z ",
        "2024-01-01T00:00:00.5Z", "2024-01-01 00:00:00Z", "", "-", "2024-01-01T00:00:0Z",
    ])
    func malformedTextIsRefused(text: String) throws {
        let data = Self.document([text])
        #expect(throws: (any Error).self) { try PropertyListDecoder().decode([Date].self, from: data) }
        #expect(throws: (any Error).self) { try PropertyListSerialization.propertyList(from: data, format: nil) }
        #expect(throws: DecodingError.self) { try PlistDecoder().decode([Date].self, from: data) }
        #expect(throws: PlistError.self) { try Plist(bytes: [UInt8](data)) }
    }

    /// Whole and fractional seconds from `Date.distantPast` to the end of 9999.
    private static let seconds: [Double] = {
        var random = SeededRandom(seed: 1582)
        var values = [
            Date.distantPast.timeIntervalSinceReferenceDate, Date.distantFuture.timeIntervalSinceReferenceDate,
            -13_197_600_000, -13_197_600_001, -13_197_600_000.5, -31_000_000_000, 0, -0.5, 0.999_999_999, -1e-300,
            252_423_993_599, 252_423_993_599.75, -63_114_076_800 + 0.25,
        ]
        for _ in 0..<1000 {
            let value = Double.random(in: -63_114_076_800..<252_423_993_600, using: &random)
            values.append(Bool.random(using: &random) ? value.rounded(.down) : value)
        }
        return values
    }()

    /// The `<date>` lines of an XML document.
    private static func dateLines(_ data: Data) -> [Substring] {
        String(decoding: data, as: UTF8.self).split(separator: "\n").filter { $0.contains("<date>") }
    }

    @Test func encodesDatesAsFoundationsEncoder() throws {
        let dates = Self.seconds.map(Date.init(timeIntervalSinceReferenceDate:))
        let encoder = PlistEncoder()
        encoder.outputFormat = .xml
        let foundationEncoder = PropertyListEncoder()
        foundationEncoder.outputFormat = .xml
        let ours = Self.dateLines(try encoder.encode(dates))
        let foundation = Self.dateLines(try foundationEncoder.encode(dates))
        try #require(ours.count == dates.count && foundation.count == dates.count)
        for index in dates.indices {
            #expect(ours[index] == foundation[index], "\(Self.seconds[index])")
        }
    }

    /// The sentinels go through XML between the two libraries and back to the bit.
    @Test(arguments: [Date.distantPast, Date.distantFuture, Date(timeIntervalSinceReferenceDate: -31_000_000_000)])
    func sentinelsRoundTripThroughXMLWithFoundation(date: Date) throws {
        let encoder = PlistEncoder()
        encoder.outputFormat = .xml
        let foundationEncoder = PropertyListEncoder()
        foundationEncoder.outputFormat = .xml
        let throughFoundation = try PropertyListDecoder().decode([Date].self, from: try encoder.encode([date]))
        #expect(
            throughFoundation[0].timeIntervalSinceReferenceDate.bitPattern
                == date.timeIntervalSinceReferenceDate.bitPattern)
        let back = try PlistDecoder().decode([Date].self, from: try foundationEncoder.encode(throughFoundation))
        #expect(back[0].timeIntervalSinceReferenceDate.bitPattern == date.timeIntervalSinceReferenceDate.bitPattern)
        #expect(
            try PlistDecoder().decode([Date].self, from: try encoder.encode([date]))[0].timeIntervalSinceReferenceDate
                .bitPattern == date.timeIntervalSinceReferenceDate.bitPattern)
    }

    /// The tree's writer stays CoreFoundation's: `Date.distantPast` is 0000-12-30 there, as
    /// `PropertyListSerialization` writes it, and a date before the Gregorian year 1 is refused.
    @Test func treeWriterFollowsPropertyListSerialization() throws {
        let dates = Self.seconds.filter { $0 >= -63_113_904_000 }.map(Date.init(timeIntervalSinceReferenceDate:))
        let ours = Self.dateLines(Data(try Plist.array(dates.map { .date($0) }).bytes(format: .xml)))
        let foundation = Self.dateLines(
            try PropertyListSerialization.data(fromPropertyList: dates, format: .xml, options: 0))
        #expect(ours == foundation)
        #expect(throws: PlistError.self) { try Plist.array([.date(.distantPast)]).bytes(format: .xml) }
    }

    /// Dates XML cannot hold so that every reader reads them back: refused with the coding path,
    /// where Foundation writes text that reads back as another date or not at all. (The error is
    /// not printed: `Date.description` traps on NaN.)
    @Test(arguments: [-63_114_076_801.0, 252_423_993_600, .nan, .infinity, -.infinity])
    func datesOutsideTheYears1To9999AreRefused(seconds: Double) {
        let encoder = PlistEncoder()
        encoder.outputFormat = .xml
        do {
            _ = try encoder.encode(["when": Date(timeIntervalSinceReferenceDate: seconds)])
            Issue.record("written")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.debugDescription.contains("\"when\""))
        } catch {
            Issue.record("another error")
        }
    }

    /// The ISO 8601 strategy writes the same calendar as the XML dates, as JSONEncoder's does.
    @Test func iso8601StrategyUsesTheCodersCalendar() throws {
        let dates = Self.seconds.map { Date(timeIntervalSinceReferenceDate: $0.rounded(.down)) }
        let encoder = PlistEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let ours = try #require(try encoder.encodeToPlist(dates).array).map { $0.string }
        let json = JSONEncoder()
        json.dateEncodingStrategy = .iso8601
        let foundation = try JSONDecoder().decode([String].self, from: try json.encode(dates))
        #expect(ours == foundation.map { Optional($0) })
        let decoder = PlistDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let back = try decoder.decode([Date].self, from: try encoder.encode(dates))
        #expect(back == dates)
    }
}
