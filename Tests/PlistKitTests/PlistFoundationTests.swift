import Foundation
import PlistFoundation
import PlistKit
import Testing

/// `Plist` with Foundation (issue 45 items 3 and 4): as a `Codable` field with our coders and
/// Foundation's, and to and from the `Any` that `PropertyListSerialization` and
/// `JSONSerialization` use. Before, `Plist` was not `Codable` and the bridge did not exist:
/// none of these compiled.
@Suite struct PlistFoundationTests {
    struct Settings: Codable, Equatable {
        var name: String
        var extras: Plist
    }

    let extras: Plist = [
        "opened": .date(Date(timeIntervalSinceReferenceDate: 1_000)),
        "bytes": .data(Data([0, 1, 2])),
        "UIBackgroundModes": ["audio", 1, true, 2.5],
        "huge": .integer(PlistInteger(UInt64.max)),
        "e\u{301}": "decomposed", "\u{E9}": "composed",
        "someKey": ["nested": [:]],
    ]

    /// The subtree itself: no strategy touches its dates or keys, and both spellings of é stay.
    @Test(arguments: [PlistFormat.binary, .xml])
    func ourCodersKeepTheSubtree(format: PlistFormat) throws {
        let settings = Settings(name: "demo", extras: extras)
        let encoder = PlistEncoder()
        encoder.outputFormat = format
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let data = try encoder.encode(settings)
        let tree = try Plist(bytes: data)
        #expect(tree["extras"] == extras)
        #expect(try PlistDecoder().decode(Settings.self, from: data) == settings)
        #expect(try PlistDecoder().decode(Settings.self, from: tree) == settings)
        #expect(try PlistDecoder().decode(Plist.self, from: data) == tree)
    }

    @Test func foundationsPropertyListCodersKeepTheValue() throws {
        var simple = extras
        simple["\u{E9}"] = nil  // one spelling: Foundation's containers key by String
        let settings = Settings(name: "demo", extras: simple)
        for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
            let encoder = PropertyListEncoder()
            encoder.outputFormat = format
            let data = try encoder.encode(settings)
            #expect(try PropertyListDecoder().decode(Settings.self, from: data) == settings)
            #expect(try Plist(bytes: data)["extras"] == simple)
        }
    }

    /// JSON: strings, numbers, Booleans, arrays and dictionaries as they are; dates are numbers
    /// and data base64 strings.
    @Test func jsonCodersGiveTheNaturalValue() throws {
        let value: Plist = ["name": "Ada", "flag": true, "count": 3, "ratio": 2.5, "list": ["a", 1, false]]
        let settings = Settings(name: "demo", extras: value)
        let data = try JSONEncoder().encode(settings)
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect((json?["extras"] as? [String: Any])?["name"] as? String == "Ada")
        #expect(try JSONDecoder().decode(Settings.self, from: data) == settings)
        let dated = Settings(name: "d", extras: ["when": .date(Date(timeIntervalSinceReferenceDate: 10))])
        let back = try JSONDecoder().decode(Settings.self, from: try JSONEncoder().encode(dated))
        #expect(back.extras == ["when": 10])
    }

    @Test func fromAndToPropertyListSerialization() throws {
        let written: [String: Any] = [
            "name": "Ada", "flag": true, "off": false, "count": 3, "ratio": 0.5, "big": UInt64.max,
            "list": [1, "two", true], "when": Date(timeIntervalSinceReferenceDate: 5), "bytes": Data([9]),
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: written, format: .binary, options: 0)
        let object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        let plist = try Plist(propertyListObject: object)
        let expected: Plist = [
            "big": .integer(PlistInteger(UInt64.max)), "bytes": .data(Data([9])), "count": 3, "flag": true,
            "list": [1, "two", true], "name": "Ada", "off": false, "ratio": 0.5,
            "when": .date(Date(timeIntervalSinceReferenceDate: 5)),
        ]
        #expect(plist == expected)
        #expect(try Plist(bytes: data) == expected)
        #expect(try Plist(propertyListObject: written) == expected)

        // Back: an Any that PropertyListSerialization writes, with the same value.
        let back = plist.propertyListObject
        let rewritten = try PropertyListSerialization.data(fromPropertyList: back, format: .xml, options: 0)
        #expect(try Plist(bytes: rewritten) == expected)
        #expect((back as? [String: Any])?["flag"] as? Bool == true)
        #expect((back as? [String: Any])?["count"] as? Int == 3)
    }

    @Test func fromJSONSerialization() throws {
        let object = try JSONSerialization.jsonObject(with: Data(#"{"t": true, "n": 1, "r": 1.5, "s": ["x"]}"#.utf8))
        #expect(try Plist(propertyListObject: object) == ["n": 1, "r": 1.5, "s": ["x"], "t": true])
    }

    @Test func errorsNameTheKeyPath() {
        let object: [String: Any] = ["window": ["frames": [1, NSNull()]]]
        #expect {
            try Plist(propertyListObject: object)
        } throws: { error in
            "\(error)".contains("\"window.frames.1\"") && "\(error)".contains("NSNull")
        }
        let badKey: [AnyHashable: Any] = [1: "one"]
        #expect(throws: PlistError.self) { try Plist(propertyListObject: ["top": badKey]) }
    }
}
