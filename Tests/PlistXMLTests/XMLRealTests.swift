import Testing

@testable import PlistXML

/// `<real>` text read the short way (`XMLScalars.shortDecimal`, Clinger's fast path) gives
/// exactly what `Double(String)` gives, the reference; text it does not take reads the long way.
@Suite struct XMLRealTests {
    static func reference(_ text: String) -> Double? { Double(text) }

    @Test func shortDecimalsAreTheStandardLibrarysDoubles() {
        var rng = SystemRandomNumberGenerator()
        var taken = 0
        for _ in 0..<50_000 {
            var text = ["", "-", "+"].randomElement(using: &rng)!
            let digits = Int.random(in: 0...20, using: &rng)
            let point = Int.random(in: -1...digits, using: &rng)
            for index in 0..<digits {
                if index == point { text += "." }
                text += String(Int.random(in: 0...9, using: &rng))
            }
            if point == digits { text += "." }
            if Int.random(in: 0..<3, using: &rng) == 0 {
                text += ["e", "E"].randomElement(using: &rng)! + ["", "-", "+"].randomElement(using: &rng)!
                text += String(Int.random(in: 0...30, using: &rng))
            }
            let bytes = Array(text.utf8)
            guard let short = XMLScalars.shortDecimal(bytes.span) else { continue }
            taken += 1
            let expected = Self.reference(text)
            #expect(short.bitPattern == expected?.bitPattern, "\(text)")
        }
        #expect(taken > 20_000, "the fast path takes most short decimals")
    }

    @Test(arguments: [
        "0", "-0", "-0.0", "0.1", "1.", ".5", "-.5", "313.0", "-683313.7969987416", "9007199254740991",
        "9007199254740993", "1e22", "1e23", "1e-22", "1e-23", "4.9e-324", "1.7976931348623157e308",
        "123456789012345678",
        "1234567890123456789", "12345678901234567890", "0.30000000000000004", "2.2250738585072014e-308",
    ])
    func edgeCasesReadAsTheStandardLibraryReadsThem(_ text: String) throws {
        let bytes = Array(text.utf8)
        #expect(try XMLScalars.real(bytes.span).bitPattern == Self.reference(text)?.bitPattern)
    }

    @Test(arguments: ["", ".", "-", "+.", "e5", "1e", "1e+", "1.2.3", "--1", "1 ", " 1", "0x10", "1e99999", "nan"])
    func otherTextIsLeftToTheLongWay(_ text: String) {
        #expect(XMLScalars.shortDecimal(Array(text.utf8).span) == nil)
    }
}
