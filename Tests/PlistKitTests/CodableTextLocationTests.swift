import Foundation
import PlistKit
import TestSupport
import Testing

/// XML, OpenStep, `.strings` and JSON are decoded through the `Plist` tree; when a value does
/// not fit its type, the error says where the value begins in the text.
@Suite struct CodableTextLocationTests {
    private struct Small: Codable { var value: Int8 }
    private struct Wrapper: Codable { var items: [Small] }
    private struct Profile: Codable { var firstName: String, loginCount: UInt8 }

    private func description(_ type: (some Decodable).Type, _ text: String, _ decoder: PlistDecoder = .init()) throws
        -> String
    {
        decoder.allowedFormats.insert(.json)
        let error = try #require(throws: DecodingError.self) { try decoder.decode(type, from: Data(text.utf8)) }
        return try #require(error.context).debugDescription
    }

    @Test func xmlGivesTheLineAndWhereTheStartTagEnds() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
                <key>items</key>
                <array>
                    <dict><key>value</key><integer>1</integer></dict>
                    <dict>
                        <key>value</key>
                        <string>x</string>
                    </dict>
                </array>
            </dict>
            </plist>
            """
        #expect(
            try description(Wrapper.self, xml)
                == #"Expected to decode Int8 but found a string ("x") instead, at line 9, column 20."#)
        // White space before `<?xml` (which CoreFoundation allows) moves the lines.
        #expect(try description(Wrapper.self, "\n\n" + xml).hasSuffix(", at line 11, column 20."))
    }

    @Test func openStepAndJSONGiveWhereTheValueBegins() throws {
        let openStep = "{\n  items = (\n    { value = 1; },\n    { value = x; }\n  );\n}\n"
        #expect(
            try description(Wrapper.self, openStep)
                == #"Expected to decode Int8 but found a string ("x") instead, at line 4, column 15."#)
        let json = "{\"items\": [\n  {\"value\": 1},\n  {\"value\": \"x\"}]}"
        #expect(
            try description(Wrapper.self, json)
                == #"Expected to decode Int8 but found a string ("x") instead, at line 3, column 13."#)
        #expect(
            try description(Wrapper.self, #"{"items": [{"value": 1}, {"value": 300}]}"#)
                == "Parsed property list number <300> does not fit in Int8, at line 1, column 36.")
        let strings = "/* comment */\n\"firstName\" = \"Ada\";\n\"loginCount\" = \"-1\";\n"
        #expect(
            try description(Profile.self, strings)
                == #"Expected to decode UInt8 but found a string ("-1") instead, at line 3, column 16."#)
    }

    @Test func aMissingKeyIsReportedWhereItsDictionaryBegins() throws {
        #expect(
            try description(Wrapper.self, #"{"items": [{"value": 1}, {}]}"#)
                == #"No value associated with key "value", at line 1, column 26."#)
    }

    @Test func keysAreMatchedThroughTheKeyStrategy() throws {
        let decoder = PlistDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let text = "{\n  first_name = Ada;\n  login_count = 1000;\n}"
        #expect(
            try description(Profile.self, text, decoder)
                == #"Expected to decode UInt8 but found a string ("1000") instead, at line 3, column 17."#)
    }

    @Test func anErrorAtTheTopHasNoPlace() throws {
        #expect(
            try description(Wrapper.self, "[1]")
                == "Expected to decode Dictionary<String, Any> but found an array ([1]) instead.")
    }
}
