import Foundation
import PlistKit
import TestSupport
import Testing

// MARK: Models

struct Person: Codable, Equatable, Sendable {
    var name: String
    var age: Int
    var height: Double
    var nickname: String?
    var tags: [String]
    var scores: [String: Int]
    var birthday: Date
    var photo: Data
    var homepage: URL
    var isActive: Bool
    var id: UUID
    var friends: [Person]
}

enum Shape: Codable, Equatable, Sendable {
    case circle(radius: Double)
    case rectangle(width: Double, height: Double)
    case labelled(String, Int)
    case empty
}

class Animal: Codable, @unchecked Sendable {
    var name: String
    init(name: String) { self.name = name }
}

final class Dog: Animal, @unchecked Sendable {
    var breed: String
    init(name: String, breed: String) {
        self.breed = breed
        super.init(name: name)
    }
    private enum CodingKeys: String, CodingKey { case breed }
    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        breed = try container.decode(String.self, forKey: .breed)
        try super.init(from: container.superDecoder())
    }
    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(breed, forKey: .breed)
        try super.encode(to: container.superEncoder())
    }
}

struct Numbers: Codable, Equatable, Sendable {
    var i8 = Int8.min, i16 = Int16.max, i32 = Int32.min, i64 = Int64.min, i = Int.max
    var u8 = UInt8.max, u16 = UInt16.max, u32 = UInt32.max, u64 = UInt64.max, u = UInt(42)
    var f = Float(1.5), d = 0.1, negativeZero = -0.0
}

struct Collections: Codable, Equatable, Sendable {
    var matrix: [[Int]] = [[1, 2], [], [3]]
    var byID: [Int: String] = [1: "one", 20: "twenty"]
    var nested: [String: [String: Bool]] = ["a": ["x": true], "b": [:]]
    var set: Set<String> = ["p", "q"]
    var optionals: [String?] = ["a", nil, "c"]
    var empty: [String] = []
    var emptyDictionary: [String: Int] = [:]
    var maybe: Int? = nil
    var shapes: [Shape] = [.circle(radius: 1), .rectangle(width: 2, height: 3), .labelled("x", 4), .empty]
}

let samplePerson = Person(
    name: "Ada", age: 36, height: 1.65, nickname: nil, tags: ["math", "engines"], scores: ["a": 1, "b": -2],
    birthday: Date(timeIntervalSinceReferenceDate: -5_000_000_000), photo: Data([0, 1, 2, 255]),
    homepage: URL(string: "https://example.com/ada?x=1")!, isActive: true,
    id: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
    friends: [
        Person(
            name: "Charles", age: 79, height: 1.8, nickname: "Babbage", tags: [], scores: [:],
            birthday: Date(timeIntervalSinceReferenceDate: 0), photo: Data(), homepage: URL(string: "file:///tmp/c")!,
            isActive: false, id: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, friends: [])
    ])

/// Many people, then a list whose container is kept past the list's end and, with
/// `changesLater`, written into after it.
private struct KeepsAList: Encodable {
    let people: [String: Person]
    let changesLater: Bool

    private enum Keys: String, CodingKey { case people, kept, end }

    private final class Kept: Encodable {
        var list: (any UnkeyedEncodingContainer)?

        func encode(to encoder: any Encoder) throws {
            var list = encoder.unkeyedContainer()
            for number in 0..<10 { try list.encode(number) }
            self.list = list
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(people, forKey: .people)
        let kept = Kept()
        try container.encode(kept, forKey: .kept)
        if changesLater { try kept.list?.encode(99) }
        try container.encode("end", forKey: .end)
    }
}

// MARK: Tests

@Suite struct CodableTests {
    static let formats: [PlistFormat] = [.binary, .xml, .openStep, .json]

    private func roundTrip<T: Codable & Equatable>(_ value: T, _ format: PlistFormat) throws -> T {
        let encoder = PlistEncoder()
        encoder.outputFormat = format
        return try Self.anyFormat().decode(T.self, from: try encoder.encode(value))
    }

    /// A decoder that also reads JSON.
    static func anyFormat() -> PlistDecoder {
        let decoder = PlistDecoder()
        decoder.allowedFormats.insert(.json)
        return decoder
    }

    @Test(arguments: formats)
    func roundTrips(format: PlistFormat) throws {
        #expect(try roundTrip(samplePerson, format) == samplePerson)
        #expect(try roundTrip(Numbers(), format) == Numbers())
        #expect(try roundTrip(Collections(), format) == Collections())
        #expect(try roundTrip(Shape.labelled("top", 1), format) == .labelled("top", 1))
        #expect(try roundTrip([1.5, 2.5], format) == [1.5, 2.5])
        #expect(try roundTrip(Data([1, 2]), format) == Data([1, 2]))
    }

    @Test(arguments: formats)
    func classesWithSuperEncoder(format: PlistFormat) throws {
        let encoder = PlistEncoder()
        encoder.outputFormat = format
        let bytes = try encoder.encode(Dog(name: "Rex", breed: "Collie"))
        let dog = try Self.anyFormat().decode(Dog.self, from: bytes)
        #expect(dog.name == "Rex" && dog.breed == "Collie")
        #expect(try Plist(bytes: bytes) == ["breed": "Collie", "super": ["name": "Rex"]])
    }

    /// Binary and XML are written from the encoder's `FlatPlist`: the bytes are those the
    /// `Plist` writers give for `encodeToPlist`'s value.
    @Test(arguments: [PlistFormat.binary, .xml])
    func bytesAreThoseOfTheTree(format: PlistFormat) throws {
        let encoder = PlistEncoder()
        encoder.outputFormat = format
        // Written by the rules of Foundation's coders (dates before 1582, -0.0).
        var options = encoder.writeOptions
        options.rules = .codable
        func check(_ value: some Encodable) throws {
            let bytes = try encoder.encodeToBytes(value)
            #expect(bytes == (try encoder.encodeToPlist(value).bytes(format: format, options: options)), "\(value)")
        }
        try check(samplePerson)
        try check(Numbers())
        try check(Collections())
        try check(Dog(name: "Rex", breed: "Collie"))
        try check(LateContainers())
        try check([Shape.labelled("top", 1), .circle(radius: 2)])
        try check([[Int]]())
        try check(Data([7]))
    }

    /// A large value encoded as XML gives the tree's bytes, also when a value is changed after
    /// its end through a container kept, and also when several threads may write it
    /// (`PlistEncoder.parallelism`; about 90,000 values, enough for two).
    @Test(arguments: [1, 4])
    func largeXMLIsTheTreesXML(parallelism: Int) throws {
        let encoder = PlistEncoder()
        encoder.outputFormat = .xml
        encoder.parallelism = parallelism
        var people: [String: Person] = [:]
        for index in 0..<3_000 {
            var person = samplePerson
            person.age = index
            person.name = "P\(index) <&>"
            people["\(index)"] = person
        }
        for changesLater in [false, true] {
            let value = KeepsAList(people: people, changesLater: changesLater)
            let bytes = try encoder.encodeToBytes(value)
            #expect(bytes == (try encoder.encodeToPlist(value).bytes(format: .xml)), "changes later: \(changesLater)")
            #expect(try Plist(bytes: bytes)["kept"]?.array?.count == (changesLater ? 11 : 10))
        }
    }

    // MARK: Foundation compatibility

    @Test(arguments: [PlistFormat.binary, .xml])
    func foundationDecodesWhatWeEncode(format: PlistFormat) throws {
        let encoder = PlistEncoder()
        encoder.outputFormat = format
        let decoder = PropertyListDecoder()
        #expect(try decoder.decode(Person.self, from: try encoder.encode(samplePerson)) == samplePerson)
        #expect(try decoder.decode(Numbers.self, from: try encoder.encode(Numbers())) == Numbers())
        #expect(try decoder.decode(Collections.self, from: try encoder.encode(Collections())) == Collections())
        let dog = try decoder.decode(Dog.self, from: try encoder.encode(Dog(name: "Rex", breed: "Collie")))
        #expect(dog.name == "Rex" && dog.breed == "Collie")
    }

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.binary, .xml])
    func weDecodeWhatFoundationEncodes(format: PropertyListSerialization.PropertyListFormat) throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format
        let decoder = PlistDecoder()
        #expect(try decoder.decode(Person.self, from: try encoder.encode(samplePerson)) == samplePerson)
        #expect(try decoder.decode(Numbers.self, from: try encoder.encode(Numbers())) == Numbers())
        #expect(try decoder.decode(Collections.self, from: try encoder.encode(Collections())) == Collections())
        let dog = try decoder.decode(Dog.self, from: try encoder.encode(Dog(name: "Rex", breed: "Collie")))
        #expect(dog.name == "Rex" && dog.breed == "Collie")
    }

    /// The same trees, key order aside: Foundation's encoder and ours agree value for value.
    @Test func sameTreeAsFoundation() throws {
        var collections = Collections()
        collections.set = ["only"]  // two sets of the same elements may iterate in other orders
        let foundation = try Plist(bytes: try PropertyListEncoder().encode(collections))
        let ours = try PlistEncoder().encodeToPlist(collections)
        #expect(ours == foundation, "\(ours.firstDifference(from: foundation) ?? "")")
        let person = try Plist(bytes: try PropertyListEncoder().encode(samplePerson))
        let ourPerson = try PlistEncoder().encodeToPlist(samplePerson)
        #expect(ourPerson == person, "\(ourPerson.firstDifference(from: person) ?? "")")
    }

    @Test func reportsTheFormat() throws {
        var format = PlistFormat.binary
        let encoder = PlistEncoder()
        encoder.outputFormat = .xml
        _ = try PlistDecoder().decode(Numbers.self, from: try encoder.encode(Numbers()), format: &format)
        #expect(format == .xml)
    }

    /// A value that hands out containers and fills them after later siblings, and sets keys again.
    private struct LateContainers: Encodable {
        enum Key: String, CodingKey { case list, first, again, child, last }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try container.encode(1, forKey: .first)
            try list.encode("a")
            var child = container.nestedContainer(keyedBy: Key.self, forKey: .child)
            try container.encode(["value"], forKey: .again)
            var again = container.nestedUnkeyedContainer(forKey: .again)  // the array just encoded
            try again.encode("more")
            try container.encode(2, forKey: .first)  // keeps its place
            var inner = list.nestedUnkeyedContainer()
            try list.encode("b")
            try inner.encode(true)
            try child.encode(3.5, forKey: .last)
            try container.encode("end", forKey: .last)
        }
    }

    @Test(arguments: [PlistFormat.binary, .xml])
    func containersFilledLateAreInTheirPlaces(format: PlistFormat) throws {
        let expected: Plist = [
            "list": ["a", [true], "b"], "first": 2, "child": ["last": 3.5], "again": ["value", "more"], "last": "end",
        ]
        let encoder = PlistEncoder()
        encoder.outputFormat = format
        let value = try Plist(bytes: [UInt8](try encoder.encode(LateContainers())))
        #expect(value == expected)
        // A key set again keeps its first place (the XML writer sorts keys, as Foundation's does).
        let tree = try encoder.encodeToPlist(LateContainers())
        #expect(tree.dictionary.map { Array($0.keys) } == ["list", "first", "child", "again", "last"])
    }

    // MARK: Errors

    private struct Small: Codable { var value: Int8 }
    private struct Wrapper: Codable { var items: [Small] }

    @Test func integersMustFit() throws {
        let error = try #require(throws: DecodingError.self) {
            try PlistDecoder().decode(Wrapper.self, from: Plist.dictionary(["items": [["value": 1], ["value": 300]]]))
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["items", "Index 1", "value"])
        #expect(context.debugDescription == "Parsed property list number <300> does not fit in Int8.")
        #expect(throws: DecodingError.self) { try PlistDecoder().decode(UInt.self, from: Plist.integer(-1)) }
        #expect(throws: DecodingError.self) { try PlistDecoder().decode(Float.self, from: Plist.real(1e300)) }
        #expect(try PlistDecoder().decode(Int.self, from: Plist.real(3)) == 3)
        #expect(throws: DecodingError.self) { try PlistDecoder().decode(Int.self, from: Plist.real(3.5)) }
    }

    /// Dictionaries with `String` keys (which the decoder makes with room for all entries)
    /// decode as Foundation decodes them, and a bad value's coding path goes through its key.
    @Test(arguments: [PlistFormat.binary, .xml])
    func stringKeyedDictionariesDecodeAsFoundations(format: PlistFormat) throws {
        var entries = PlistDictionary()
        for number in 0..<3_000 { entries["k\(number * 7 % 3_000)"] = ["x": .integer(PlistInteger(number))] }
        let data = Data(try Plist.dictionary(entries).bytes(format: format, options: .init()))
        let ours = try PlistDecoder().decode([String: [String: Int]].self, from: data)
        #expect(ours == (try PropertyListDecoder().decode([String: [String: Int]].self, from: data)))
        #expect(ours.count == 3_000 && ours["k7"] == ["x": 1])
        let bad = Data(try Plist.dictionary(["a": ["x": 1], "b": ["x": "y"]]).bytes(format: format, options: .init()))
        let error = try #require(throws: DecodingError.self) {
            try PlistDecoder().decode([String: [String: Int]].self, from: bad)
        }
        guard case .typeMismatch(_, let context) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["b", "x"])
    }

    /// Throws with the coding path its encoder gives.
    private struct FailsWithItsPath: Encodable {
        func encode(to encoder: any Encoder) throws {
            throw EncodingError.invalidValue(0, .init(codingPath: encoder.codingPath, debugDescription: "here"))
        }
    }

    private struct ItemsThatFail: Encodable {
        var first = 1
        var items = [FailsWithItsPath()]
    }

    /// An array element's coding key is Foundation's decoders' ("Index 0", with the index as
    /// its integer). (Foundation's encoder on this platform gives such an error an empty path.)
    @Test func encodingErrorsSayWhichElement() throws {
        let error = try #require(throws: EncodingError.self) { try PlistEncoder().encode(ItemsThatFail()) }
        guard case .invalidValue(_, let context) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["items", "Index 0"])
        #expect(context.codingPath.map(\.intValue) == [nil, 0])
    }

    @Test func typeMismatchAndMissingKeys() throws {
        let mismatch = try #require(throws: DecodingError.self) {
            try PlistDecoder().decode(Wrapper.self, from: Plist.dictionary(["items": [["value": "x"]]]))
        }
        guard case .typeMismatch(_, let context) = mismatch else {
            Issue.record("\(mismatch)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["items", "Index 0", "value"])
        #expect(context.debugDescription == "Expected to decode Int8 but found a string (\"x\") instead.")
        let missing = try #require(throws: DecodingError.self) {
            try PlistDecoder().decode(Wrapper.self, from: Plist.dictionary(["items": [[:]]]))
        }
        guard case .keyNotFound(let key, let keyContext) = missing else {
            Issue.record("\(missing)")
            return
        }
        #expect(key.stringValue == "value")
        #expect(keyContext.codingPath.map(\.stringValue) == ["items", "Index 0"])
    }

    @Test func badBytesSayWhereTheyAreBad() throws {
        let error = try #require(throws: DecodingError.self) {
            try PlistDecoder().decode(Int.self, from: Data("{ a = ".utf8))
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(
            context.debugDescription == "The data is not a valid property list: 1:1: the input ends inside a dictionary"
        )
    }

    // MARK: Beyond Foundation

    private struct Profile: Codable, Equatable {
        var firstName: String
        var homePageURL: URL
        var lastLogin: Date
    }

    @Test func snakeCaseKeys() throws {
        let encoder = PlistEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let profile = Profile(
            firstName: "A", homePageURL: URL(string: "https://a.b")!, lastLogin: Date(timeIntervalSinceReferenceDate: 5)
        )
        let tree = try encoder.encodeToPlist(profile)
        #expect(tree.dictionary?.keys.elements == ["first_name", "home_page_url", "last_login"])
        let decoder = PlistDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        struct Loose: Codable, Equatable {
            var firstName: String
            var homePageUrl: URL
            var lastLogin: Date
        }
        #expect(
            try decoder.decode(Loose.self, from: tree)
                == Loose(firstName: "A", homePageUrl: profile.homePageURL, lastLogin: profile.lastLogin))
    }

    /// A `[String: V]`'s keys go through the key strategy too (as in Foundation's JSON
    /// decoder), in a tree, a binary file and an XML document.
    @Test(arguments: [nil, PlistFormat.binary, .xml])
    func snakeCaseDictionaryKeys(format: PlistFormat?) throws {
        let tree: Plist = ["first_name": ["a_b": 1], "x_y": ["c": 2]]
        let decoder = PlistDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let decoded =
            if let format {
                try decoder.decode(
                    [String: [String: Int]].self, from: Data(try tree.bytes(format: format, options: .init())))
            } else {
                try decoder.decode([String: [String: Int]].self, from: tree)
            }
        #expect(decoded == ["firstName": ["aB": 1], "xY": ["c": 2]])
    }

    @Test func customKeys() throws {
        let encoder = PlistEncoder()
        encoder.keyEncodingStrategy = .custom { path in PlistKeyPathKey(path.last!.stringValue.uppercased()) }
        let tree = try encoder.encodeToPlist(Small(value: 3))
        #expect(tree == ["VALUE": 3])
        let decoder = PlistDecoder()
        decoder.keyDecodingStrategy = .custom { path in PlistKeyPathKey(path.last!.stringValue.lowercased()) }
        #expect(try decoder.decode(Small.self, from: tree).value == 3)
    }

    @Test func dateStrategiesForFormatsWithoutDates() throws {
        let profile = Profile(
            firstName: "A", homePageURL: URL(string: "https://a.b")!,
            lastLogin: Date(timeIntervalSinceReferenceDate: 0.25))
        for (encoding, decoding, expected) in [
            (
                PlistEncoder.DateEncodingStrategy.iso8601, PlistDecoder.DateDecodingStrategy.iso8601,
                Plist.string("2001-01-01T00:00:00.25Z")
            ),
            (.secondsSince1970, .secondsSince1970, .real(978_307_200.25)),
            (.secondsSinceReferenceDate, .secondsSinceReferenceDate, .real(0.25)),
        ] {
            let encoder = PlistEncoder()
            encoder.dateEncodingStrategy = encoding
            encoder.outputFormat = .openStep
            encoder.writeOptions.openStepValues = .strict
            #expect(try encoder.encodeToPlist(profile)["lastLogin"] == expected)
            if case .string = expected {
                let decoder = PlistDecoder()
                decoder.dateDecodingStrategy = decoding
                #expect(
                    try decoder.decode(Profile.self, from: try encoder.encode(profile)) == profile, "strict OpenStep")
            }
            let json = PlistEncoder()
            json.dateEncodingStrategy = encoding
            json.outputFormat = .json
            json.writeOptions.jsonValues = .strict
            let decoder = Self.anyFormat()
            decoder.dateDecodingStrategy = decoding
            #expect(try decoder.decode(Profile.self, from: try json.encode(profile)) == profile, "strict JSON")
        }
    }

    /// OpenStep holds only strings: numbers and Booleans decode from them (Foundation's decoder,
    /// checked here, refuses them).
    @Test func numbersFromOpenStepStrings() throws {
        struct Settings: Codable, Equatable {
            var count: Int
            var ratio: Double
            var enabled: Bool
            var name: String
        }
        let text = Data("{ count = 12; ratio = 0.5; enabled = YES; name = x; }".utf8)
        #expect(
            try PlistDecoder().decode(Settings.self, from: text)
                == Settings(count: 12, ratio: 0.5, enabled: true, name: "x"))
        #expect(throws: DecodingError.self) { try PropertyListDecoder().decode(Settings.self, from: text) }
    }

    @Test func urlsFromAbsoluteStrings() throws {
        struct Link: Codable, Equatable { var url: URL }
        // JSON coders write URLs as strings; binary, XML and trees decode as Foundation's decoder.
        #expect(
            try Self.anyFormat().decode(Link.self, from: Data(#"{"url": "https://a.b/c"}"#.utf8)).url.absoluteString
                == "https://a.b/c")
        #expect(throws: DecodingError.self) {
            try PlistDecoder().decode(Link.self, from: Plist.dictionary(["url": "https://a.b/c"]))
        }
        let relative = Link(url: URL(string: "c/d", relativeTo: URL(string: "https://a.b/")!)!)
        #expect(
            try PlistDecoder().decode(Link.self, from: try PropertyListEncoder().encode(relative)).url.absoluteString
                == "https://a.b/c/d")
    }

    @Test func encodesToAFileAtomically() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("codable-\(UUID().uuidString).plist")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try PlistEncoder().encode(Numbers(), toFile: path)
        #expect(
            try PlistDecoder().decode(Numbers.self, from: try Data(contentsOf: URL(fileURLWithPath: path))) == Numbers()
        )
    }
}

/// A coding key made of a string, for the custom key strategies.
private struct PlistKeyPathKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
