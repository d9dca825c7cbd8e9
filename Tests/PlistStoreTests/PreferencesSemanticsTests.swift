import Foundation
import PlistKit
import PlistStore
import Synchronization
import Testing

/// Collects the errors a store reports.
final class Errors: Sendable {
    let list = Mutex<[PlistStoreError]>([])
    var handler: @Sendable (PlistStoreError) -> Void { { [self] error in list.withLock { $0.append(error) } } }
    var all: [PlistStoreError] { list.withLock { $0 } }
}

struct Settings: Codable, Equatable, Sendable {
    var name: String
    var size: Int
    var ratio: Double
    var tags: [String]
    var created: Date
}

extension Preferences.Key where Value == Int {
    static let volume = Self("volume", default: 5)
}

extension Preferences.Key where Value == Settings? {
    static let settings = Self("settings", default: nil)
}

@Suite(.timeLimit(.minutes(10)))
struct PreferencesSemanticsTests {
    func store(_ root: TemporaryRoot, _ domain: String = "app", arguments: [String] = [], errors: Errors = Errors())
        throws
        -> Preferences
    {
        try Preferences(
            domain: domain, container: root.container, arguments: arguments, flushDelay: nil,
            errorHandler: errors.handler)
    }

    @Test func searchListOrder() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let writer = try store(root, "writer")
        try writer.setPersistentDomain(["k": "global", "global-only": 1], forName: Preferences.globalDomain)
        try writer.setPersistentDomain(["k": "suite", "suite-only": 1], forName: "group.suite")
        try writer.setPersistentDomain(["k": "app", "app-only": 1], forName: "app")
        try writer.synchronize()

        let app = try store(root, arguments: ["-k", "argument"])
        app.register(defaults: ["k": "registration", "registration-only": 1])
        try app.addSuite(named: "group.suite")
        #expect(app.string(forKey: "k") == "argument")
        #expect(app.integer(forKey: "app-only") == 1)
        #expect(app.integer(forKey: "suite-only") == 1)
        #expect(app.integer(forKey: "global-only") == 1)
        #expect(app.integer(forKey: "registration-only") == 1)

        // Peel the list one domain at a time.
        let withoutArgument = try store(root)
        withoutArgument.register(defaults: ["k": "registration"])
        try withoutArgument.addSuite(named: "group.suite")
        #expect(withoutArgument.string(forKey: "k") == "app")
        withoutArgument.removeObject(forKey: "k")
        #expect(withoutArgument.string(forKey: "k") == "suite")
        withoutArgument.removeSuite(named: "group.suite")
        #expect(withoutArgument.string(forKey: "k") == "global")
        let onlyRegistration = try store(root, "empty")
        onlyRegistration.register(defaults: ["k": "registration"])
        #expect(onlyRegistration.string(forKey: "k") == "global")
        #expect(onlyRegistration.string(forKey: "registration-only") == nil)
        #expect(onlyRegistration.dictionaryRepresentation()["global-only"] as? Int == 1)
    }

    /// Foundation's rules (`PreferencesFoundationTests` compares them with Foundation itself): a
    /// pair whose value starts with `-` is skipped, values are trimmed, and only a value that
    /// starts with `{`, `(`, `[`, `<` or `"` is read as a property list.
    @Test func launchArgumentsAreReadAsFoundationReadsThem() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let store = try store(
            root,
            arguments: [
                "file.txt", "-name", "Anna Lee", "-count", " 5 ", "-list", "(a, \"b c\")", "-map", "{ a = 1; }", "-on",
                "YES",
                "-xml", "<plist><integer>7</integer></plist>", "-json", "[1, true]", "-quoted", "\"q\"", "-verbose",
                "-listArg", "(a,b)", "-negative", "-3", "-last",
            ])
        #expect(store.argumentDomain["name"] == "Anna Lee")
        #expect(store.argumentDomain["count"] == "5")
        #expect(store.integer(forKey: "count") == 5)
        #expect(store.argumentDomain["list"] == ["a", "b c"])
        #expect(store.argumentDomain["map"] == ["a": "1"])
        #expect(store.bool(forKey: "on"))
        #expect(store.argumentDomain["xml"] == 7)
        #expect(store.argumentDomain["json"] == "[1, true]", "not an OpenStep property list: the string")
        #expect(store.argumentDomain["quoted"] == "q")
        #expect(store.argumentDomain["verbose"] == nil, "its value would start with -")
        #expect(store.argumentDomain["listArg"] == ["a", "b"])
        #expect(store.argumentDomain["negative"] == nil)
        #expect(store.argumentDomain["last"] == nil)
        #expect(store.argumentDomain.count == 9)
        // The argument domain is never saved.
        store.set("x", forKey: "other")
        try store.synchronize()
        #expect(try root.domain("app") == ["other": "x"])
    }

    @Test func registrationNeverReachesTheDisk() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let store = try store(root)
        store.register(defaults: ["registered": 1, "shared": "registration"])
        #expect(store.integer(forKey: "registered") == 1)
        store.set("mine", forKey: "shared")
        try store.synchronize()
        #expect(try root.domain("app") == ["shared": "mine"])
        store.removeObject(forKey: "shared")
        try store.synchronize()
        #expect(store.string(forKey: "shared") == "registration")
        #expect(try root.domain("app") == [:])
    }

    /// Each row: a stored value and what integer, double, bool and string give (Foundation's
    /// results for the same value).
    static let coercions: [(Plist, Int, Double, Bool, String?)] = [
        (42, 42, 42, true, "42"),
        (0, 0, 0, false, "0"),
        (-7, -7, -7, true, "-7"),
        (3.9, 3, 3.9, true, "3.9"),
        (-3.9, -3, -3.9, true, "-3.9"),
        (2.0, 2, 2, true, "2"),
        (true, 1, 1, true, "1"),
        (false, 0, 0, false, "0"),
        ("42", 42, 42, true, "42"),
        ("  7 apples", 7, 7, true, "  7 apples"),
        ("3.5kg", 3, 3.5, true, "3.5kg"),
        ("-12", -12, -12, true, "-12"),
        ("YES", 0, 0, true, "YES"),
        ("yes", 0, 0, true, "yes"),
        ("true", 0, 0, true, "true"),
        ("T", 0, 0, true, "T"),
        ("1", 1, 1, true, "1"),
        ("0", 0, 0, false, "0"),
        ("007", 7, 7, true, "007"),
        ("NO", 0, 0, false, "NO"),
        ("false", 0, 0, false, "false"),
        ("abc", 0, 0, false, "abc"),
        ("", 0, 0, false, ""),
        ("1e3", 1, 1000, true, "1e3"),
        ("99999999999999999999", Int.max, 1e20, true, "99999999999999999999"),
        (.date(Date(timeIntervalSinceReferenceDate: 0)), 0, 0, false, nil),
        (.data(Data([1])), 0, 0, false, nil),
        (["a"], 0, 0, false, nil),
        (["a": 1], 0, 0, false, nil),
    ]

    @Test(arguments: coercions.indices)
    func typedGettersCoerceAsFoundationDoes(_ index: Int) throws {
        let (value, integer, double, bool, string) = Self.coercions[index]
        let root = try TemporaryRoot()
        defer { root.remove() }
        let store = try store(root)
        store.set(value, forKey: "v")
        #expect(store.integer(forKey: "v") == integer, "\(value)")
        #expect(store.double(forKey: "v") == double, "\(value)")
        #expect(store.float(forKey: "v") == Float(double), "\(value)")
        #expect(store.bool(forKey: "v") == bool, "\(value)")
        #expect(store.string(forKey: "v") == string, "\(value)")
    }

    /// Reals past `Int`'s range saturate (as on arm64; Foundation on x86-64 gives `Int.min`, the
    /// processor's conversion of any out-of-range value), and never trap: `Double(Int.max)` is
    /// 2^63, one past `Int.max`.
    @Test func realsPastIntegersSaturate() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let store = try store(root)
        for (value, integer) in [
            (1e19, Int.max), (0x1p63, Int.max), (-1e19, Int.min), (.infinity, Int.max), (-.infinity, Int.min),
        ] {
            store.set(Plist.real(value), forKey: "v")
            #expect(store.integer(forKey: "v") == integer, "\(value)")
            #expect(store.double(forKey: "v") == value && store.bool(forKey: "v"), "\(value)")
        }
    }

    @Test func missingKeysGiveZeroFalseAndNil() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let store = try store(root)
        #expect(store.integer(forKey: "none") == 0)
        #expect(store.double(forKey: "none") == 0)
        #expect(!store.bool(forKey: "none"))
        #expect(store.string(forKey: "none") == nil)
        #expect(store.plist(forKey: "none") == nil)
        #expect(store.object(forKey: "none") == nil)
        #expect(store.url(forKey: "none") == nil)
        #expect(store.array(forKey: "none") == nil)
    }

    @Test func containerGetters() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let store = try store(root)
        store.set(["a", "b"], forKey: "strings")
        store.set(["a", 1], forKey: "mixed")
        store.set(["k": 1], forKey: "map")
        store.set(.data(Data([1, 2])), forKey: "bytes")
        #expect(store.stringArray(forKey: "strings") == ["a", "b"])
        #expect(store.array(forKey: "mixed")?.first as? String == "a")
        #expect(store.plist(forKey: "mixed")?.array == ["a", 1])
        #expect(store.stringArray(forKey: "mixed") == nil)
        #expect(store.dictionary(forKey: "map")?["k"] as? Int == 1)
        #expect(store.dictionary(forKey: "strings") == nil)
        #expect(store.data(forKey: "bytes") == Data([1, 2]))
        #expect(store.data(forKey: "map") == nil)
        #expect(store.array(forKey: "map") == nil)
    }

    @Test func urls() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let store = try store(root)
        store.set(URL(string: "https://example.com/a?b=1")!, forKey: "web")
        store.set(URL(fileURLWithPath: "/tmp/x y"), forKey: "file")
        store.set("/var/log", forKey: "path")
        store.set("~/notes", forKey: "home")
        store.set(5, forKey: "number")
        #expect(store.url(forKey: "web") == URL(string: "https://example.com/a?b=1"))
        #expect(store.plist(forKey: "file") == "file:///tmp/x%20y")
        #expect(store.url(forKey: "file")?.path == "/tmp/x y")
        #expect(store.url(forKey: "path") == URL(fileURLWithPath: "/var/log"))
        let home = ProcessInfo.processInfo.environment["HOME"] ?? ""
        #expect(store.url(forKey: "home")?.path == home + "/notes")
        #expect(store.url(forKey: "number") == nil)
    }

    @Test func codableValuesAreNativeTrees() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let store = try store(root)
        let value = Settings(
            name: "n", size: 3, ratio: 0.5, tags: ["a", "b"], created: Date(timeIntervalSinceReferenceDate: 86_400))
        try store.encode(value, forKey: "settings")
        try store.synchronize()
        let onDisk = try root.domain("app").dictionary?["settings"]
        #expect(
            onDisk == [
                "name": "n", "size": 3, "ratio": 0.5, "tags": ["a", "b"],
                "created": .date(Date(timeIntervalSinceReferenceDate: 86_400)),
            ])
        let reader = try self.store(root)
        #expect(try reader.decode(Settings.self, forKey: "settings") == value)
        #expect(try reader.decode(Settings.self, forKey: "absent") == nil)
        #expect(throws: PlistStoreError.self) { try reader.decode(Int.self, forKey: "settings") }
        struct Bad: Encodable {
            func encode(to encoder: any Encoder) throws {
                throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "not a plist"))
            }
        }
        #expect { try store.encode(Bad(), forKey: "bad") } throws: { ($0 as? PlistStoreError)?.code == .invalidValue }
        #expect(store.plist(forKey: "bad") == nil)
    }

    @Test func typedKeys() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let store = try store(root)
        #expect(store[.volume] == 5)
        store[.volume] += 2
        #expect(store[.volume] == 7)
        #expect(store.plist(forKey: "volume") == 7)
        store.set("loud", forKey: "volume")
        #expect(store[.volume] == 5, "a value that is not an Int gives the default")
        #expect(store[.settings] == nil)
        let value = Settings(name: "x", size: 1, ratio: 1, tags: [], created: Date(timeIntervalSinceReferenceDate: 0))
        store[.settings] = value
        #expect(store[.settings] == value)
    }

    @Test func volatileDomainsAreNotSearchedNorSaved() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let store = try store(root)
        store.setVolatileDomain(["v": 1], forName: "session")
        #expect(store.volatileDomain(forName: "session") as? [String: Int] == ["v": 1])
        #expect(store.volatileDomainNames == ["session"])
        #expect(store.plist(forKey: "v") == nil)
        store.set(1, forKey: "saved")
        try store.synchronize()
        #expect(root.files().filter { $0.hasSuffix(".plist") } == ["app.plist"])
        store.removeVolatileDomain(forName: "session")
        #expect(store.volatileDomainNames.isEmpty)
    }

    @Test func persistentDomains() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let store = try store(root)
        try store.setPersistentDomain(["a": 1], forName: "other")
        try store.synchronize()
        #expect(store.persistentDomainNames() == ["other"])
        #expect(try store.persistentDomain(forName: "other") as? [String: Int] == ["a": 1])
        #expect(try store.persistentDomainPlist(forName: "other") == ["a": 1])
        try store.removePersistentDomain(forName: "other")
        try store.synchronize()
        #expect(!root.files().contains("other.plist"))
        #expect(try store.persistentDomain(forName: "other") == nil)
        #expect(throws: PlistStoreError.self) { try store.setPersistentDomain([:], forName: "../x") }
    }
}
