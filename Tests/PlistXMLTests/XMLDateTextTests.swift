import PlistCore
import PlistXML
import Testing

/// Dates typed as text (plistconv's `-date`, PlistBuddy's values) are read by the XML readers'
/// own date parser (`Plist.date(xmlText:)`): the same date as the `<date>` element, and none
/// where the element is refused.
@Suite struct XMLDateTextTests {
    @Test(arguments: [
        "2026-01-01T00:00:00Z", "2024-01-32T00:00:00Z", "-0001-12-31T23:59:59Z", "0000-01-01T00:00:00Z",
        "99999-06-15T12:30:45Z", "2026-13-01T00:00:00Z", "2026-01-01T24:00:60Z", "2026-01-01T00:00:00",
        "2026-01-01 00:00:00Z", " 2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z ", "26-01-01T00:00:00Z",
        "", "Z", "now", "2026-1-01T00:00:00Z", "２０２６-01-01T00:00:00Z",
    ])
    func readsAsTheXMLElementDoes(text: String) {
        let element = try? Plist(xml: Array("<date>\(text)</date>".utf8))
        #expect(Plist.date(xmlText: text) == element, "\(text)")
    }
}
