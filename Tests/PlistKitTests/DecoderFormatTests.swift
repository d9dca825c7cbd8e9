import Foundation
import PlistKit
import Testing

/// `PlistDecoder` reads the formats the caller allows, by default what Foundation's decoder
/// reads, and places every XML error (issue 45 item 8). Before, JSON decoded by default, there
/// was no `allowedFormats` (the test did not compile), and a missing key of the top dictionary
/// in XML had no line and column.
@Suite struct DecoderFormatTests {
    struct Profile: Decodable, Equatable {
        var firstName: String
        var loginCount: Int
    }

    @Test func jsonIsRefusedUnlessAllowed() throws {
        let json = Data(#"{"firstName": "Ada", "loginCount": 3}"#.utf8)
        let decoder = PlistDecoder()
        let error = try #require(throws: DecodingError.self) { try decoder.decode(Profile.self, from: json) }
        #expect("\(error)".contains("which this decoder does not read"))
        decoder.allowedFormats.insert(.json)
        #expect(try decoder.decode(Profile.self, from: json) == Profile(firstName: "Ada", loginCount: 3))
    }

    @Test func onlyTheAllowedFormats() throws {
        let profile = Profile(firstName: "Ada", loginCount: 3)
        let openStep = Data(#"{ firstName = Ada; loginCount = 3; }"#.utf8)
        let xml = Data(try Plist(["firstName": "Ada", "loginCount": 3]).xmlBytes())
        let binary = Data(try Plist(["firstName": "Ada", "loginCount": 3]).binaryBytes())
        let decoder = PlistDecoder()
        #expect(try decoder.decode(Profile.self, from: openStep) == profile)
        #expect(try decoder.decode(Profile.self, from: xml) == profile)
        decoder.allowedFormats = [.binary]
        #expect(try decoder.decode(Profile.self, from: binary) == profile)
        #expect(throws: DecodingError.self) { try decoder.decode(Profile.self, from: xml) }
        #expect(throws: DecodingError.self) { try decoder.decode(Profile.self, from: openStep) }
    }

    /// A key missing from the top dictionary: with the scanner's table and with libxml2 (which
    /// reads the CDATA section the scanner declines).
    @Test(arguments: ["<string>Ada</string>", "<string><![CDATA[Ada]]></string>"])
    func aMissingTopKeyInXMLHasItsPlace(value: String) throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
                <key>firstName</key>
                \(value)
            </dict>
            </plist>
            """
        let error = try #require(throws: DecodingError.self) {
            try PlistDecoder().decode(Profile.self, from: Data(xml.utf8))
        }
        guard case .keyNotFound(let key, let context) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(key.stringValue == "loginCount")
        #expect(context.debugDescription.hasSuffix(", at line 3, column 6."), "\(context.debugDescription)")
    }
}
