import Foundation
import PlistKit
import PlistStore
import Testing

/// What a UserDefaults user writes works the same: `set` with Swift variables, `object(forKey:)`
/// cast to Swift types, launch arguments, a standard store. Compared with Foundation's
/// UserDefaults itself, run in the probe process (so that its files go to a temporary
/// XDG_CONFIG_HOME).
@Suite(.timeLimit(.minutes(10)))
struct PreferencesFoundationTests {
    /// Variables, not literals: each type UserDefaults takes, and arrays and dictionaries of them.
    @Test func setTakesSwiftValues() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let store = try Preferences(domain: "app", container: root.container, arguments: [], flushDelay: nil)
        let name = "Ada"
        let count = 3
        let small: Int8 = -8
        let medium: Int16 = 1_600
        let wide: Int32 = -320_000
        let long: Int64 = .min
        let unsigned: UInt = 7
        let byte: UInt8 = 255
        let short: UInt16 = 65_535
        let word: UInt32 = 4_000_000_000
        let huge: UInt64 = .max
        let ratio = 0.25
        let single: Float = 1.5
        let flag = true
        let date = Date(timeIntervalSinceReferenceDate: 86_400)
        let bytes = Data([1, 2, 3])
        let link = URL(string: "https://example.com/a")!
        let tags = ["a", "b"]
        let sizes = ["small": 1, "large": 2]
        let nested = [["k": [1, 2]]]
        let tree: Plist = ["x": [1, "y"]]
        store.set(name, forKey: "name")
        store.set(count, forKey: "count")
        store.set(small, forKey: "int8")
        store.set(medium, forKey: "int16")
        store.set(wide, forKey: "int32")
        store.set(long, forKey: "int64")
        store.set(unsigned, forKey: "uint")
        store.set(byte, forKey: "uint8")
        store.set(short, forKey: "uint16")
        store.set(word, forKey: "uint32")
        store.set(huge, forKey: "uint64")
        store.set(ratio, forKey: "double")
        store.set(single, forKey: "float")
        store.set(flag, forKey: "bool")
        store.set(date, forKey: "date")
        store.set(bytes, forKey: "data")
        store.set(link, forKey: "url")
        store.set(tags, forKey: "tags")
        store.set(sizes, forKey: "sizes")
        store.set(nested, forKey: "nested")
        store.set(tree, forKey: "tree")
        store.set(5, forKey: "literal")
        store.set(["a", 1], forKey: "mixed")
        let missing: String? = nil
        store.set("gone", forKey: "optional")
        store.set(missing, forKey: "optional")
        try store.synchronize()
        let expected: Plist = [
            "name": "Ada", "count": 3, "int8": -8, "int16": 1_600, "int32": -320_000,
            "int64": .integer(PlistInteger(Int64.min)),
            "uint": 7, "uint8": 255, "uint16": 65_535, "uint32": 4_000_000_000,
            "uint64": .integer(PlistInteger(UInt64.max)),
            "double": 0.25, "float": 1.5, "bool": true, "date": .date(date), "data": .data(bytes),
            "url": "https://example.com/a",
            "tags": ["a", "b"], "sizes": ["large": 2, "small": 1], "nested": [["k": [1, 2]]], "tree": ["x": [1, "y"]],
            "literal": 5, "mixed": ["a", 1],
        ]
        #expect(try root.domain("app") == expected)
        #expect(store.string(forKey: "name") == name)
        #expect(store.url(forKey: "url") == link)
        #expect(store.stringArray(forKey: "tags") == tags)
    }

    /// For each value, what `object(forKey:)` gives cast to String, Int, Double, Bool, [String],
    /// [String: Any], Date and Data: the same through Foundation and through the store.
    @Test func objectForKeyCastsAsFoundations() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        var environment = root.xdgEnvironment
        environment[AppContainer.rootEnvironmentVariable] = root.path
        let result = try Built.run(Built.path("plist-store-probe"), ["compare-values"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 18)
        for pair in stride(from: 0, to: lines.count - 1, by: 2) {
            let foundation = lines[pair].split(separator: " ", maxSplits: 2)
            let ours = lines[pair + 1].split(separator: " ", maxSplits: 2)
            #expect(foundation[1] == "foundation" && ours[1] == "ours")
            #expect(ours[2] == foundation[2], "key \(foundation[0])")
        }
        #expect(
            lines.first
                == "s foundation String=Ada Int=nil Double=nil Bool=nil [String]=nil [String:Any]=nil Date=nil Data=nil"
        )
    }

    /// The argument domain of awkward command lines, from Foundation and from the store.
    @Test(arguments: [
        ["-verbose", "-listArg", "(a,b)"],
        ["-name", "  Anna Lee  ", "-n", "5", "-json", "[1, true]", "-xml", "<plist><integer>7</integer></plist>"],
        ["-list", "(a, \"b c\")", "-map", "{ a = 1; b = (x); }", "-quoted", "\"q r\"", "-broken", "(a,"],
        ["--", "x", "-", "y", "-empty", "", "-dup", "1", "-dup", "2", "-data", "<0fbd 7777>", "-last"],
        ["word", "-a", "-b", "c", "-tab", "\t(1)\n", "-string", "<string>s</string>"],
    ])
    func launchArgumentsAsFoundationReadsThem(_ arguments: [String]) throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let result = try Built.run(
            Built.path("plist-store-probe"), ["compare-arguments"] + arguments, environment: root.xdgEnvironment)
        #expect(result.status == 0, "\(result.stderr)")
        let parts = result.stdout.components(separatedBy: "\n--\n")
        try #require(parts.count == 2)
        let foundation = try Plist(xml: Array(parts[0].utf8))
        let ours = try Plist(xml: Array(parts[1].utf8))
        #expect(ours == foundation, "\(arguments)")
        #expect(foundation.dictionary?.isEmpty == false)
    }

    /// `Preferences.standard` writes the process's own domain, and every store of that domain
    /// sees its changes at once.
    @Test func standardStore() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let result = try Built.probe(["standard", "theme", "Dark"], root: root.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Dark\nplist-store-probe\n")
        #expect(try root.domain("plist-store-probe") == ["theme": "Dark"])
    }
}
