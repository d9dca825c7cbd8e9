import Testing

@testable import PlistCore

/// `XMLDate`'s short way for whole seconds gives the same text as CoreFoundation's own steps
/// (which `XMLWriterTests.writesDatesAsCoreFoundationDoes` checks against Foundation's text).
@Suite struct XMLDateTests {
    private func text(_ write: (inout ShortText) -> Void) -> [UInt8] {
        var text = ShortText()
        write(&text)
        var bytes: [UInt8] = []
        bytes.append(addingCapacity: text.count) { text.write(to: &$0) }
        return bytes
    }

    private func expectSameText(_ seconds: Int64) {
        let short = text { XMLDate.appendWholeSeconds(seconds, to: &$0) }
        let long = text { XMLDate.appendAsCoreFoundation(secondsSinceReference: Double(seconds), to: &$0) }
        #expect(
            short == long,
            "\(seconds): \(String(decoding: short, as: UTF8.self)) != \(String(decoding: long, as: UTF8.self))")
    }

    @Test func wholeSecondsGiveCoreFoundationsText() {
        let first = Int64(XMLDate.firstWholeSecond)
        let end = Int64(XMLDate.endOfWholeSeconds)
        // The ends, and each side of midnight every 59th day: over the 8,400 years that lands
        // on all 366 days of the year (February 29 included), so on every month's turn.
        var checked: [Int64] = [first, first + 1, end - 1, end - 86_400, -1, 0, 1, 86_399, 86_400]
        var day: Int64 = first / 86_400
        while day * 86_400 < end {
            checked += [day * 86_400 - 1, day * 86_400]
            day += 59
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 { checked.append(Int64.random(in: first..<end, using: &generator)) }
        // Dates near now: 1970 to 2040.
        for _ in 0..<20_000 { checked.append(Int64.random(in: -978_307_200..<1_230_768_000, using: &generator)) }
        for seconds in checked where seconds >= first && seconds < end { expectSameText(seconds) }
    }

    @Test func otherValuesAreWrittenByCoreFoundationsSteps() {
        for seconds in [0.5, -0.5, XMLDate.firstWholeSecond - 1, XMLDate.endOfWholeSeconds, 1e15, -1e-300, .nan] {
            let written = text { XMLDate.append(secondsSinceReference: seconds, to: &$0) }
            let long = text { XMLDate.appendAsCoreFoundation(secondsSinceReference: seconds, to: &$0) }
            #expect(written == long, "\(seconds)")
        }
    }
}
