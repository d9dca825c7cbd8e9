import Foundation
import PlistKit
import PlistStore
import Testing

extension Preferences.Key where Value == String {
    static let theme = Self("theme", default: "Light")
}

extension Preferences.Key where Value == String? {
    static let nickname = Self("nickname", default: nil)
}

extension Preferences.Key where Value == [String] {
    static let recent = Self("recent", default: ["a"])
}

/// Typed keys as sindresorhus/Defaults has them: nil removes, reset, typed updates, and
/// defaults that untyped lookups see.
@Suite(.timeLimit(.minutes(10)))
struct TypedKeyTests {
    func store(_ root: TemporaryRoot) throws -> Preferences {
        try Preferences(domain: "app", container: root.container, arguments: [], flushDelay: nil)
    }

    @Test func optionalKeySetToNilRemovesTheKey() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let store = try store(root)
        store[.nickname] = "Ada"
        try store.synchronize()
        #expect(try root.domain("app") == ["nickname": "Ada"])
        store[.nickname] = nil
        try store.synchronize()
        #expect(try root.domain("app") == [:], "not the string $null")
        #expect(store[.nickname] == nil)
        #expect(store.plist(forKey: "nickname") == nil)
    }

    @Test func resetRemovesTheKeys() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let store = try store(root)
        store[.theme] = "Dark"
        store[.volume] = 9
        store[.recent] = ["x", "y"]
        store.reset(.theme, .volume)
        #expect(store[.theme] == "Light")
        #expect(store[.volume] == 5)
        #expect(store[.recent] == ["x", "y"])
        try store.synchronize()
        #expect(try root.domain("app") == ["recent": ["x", "y"]])
    }

    /// Registered defaults are what untyped lookups give for a key no domain has, and are
    /// never saved; a registration already made for the key wins.
    @Test func defaultsAreRegistered() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let store = try store(root)
        store.register(defaults: ["volume": 11])
        store.register(.theme, .volume, .recent, .nickname)
        #expect(store.string(forKey: "theme") == "Light")
        #expect(store.object(forKey: "theme") as? String == "Light")
        #expect(store.integer(forKey: "volume") == 11)
        #expect(store[.volume] == 11)
        #expect(store.stringArray(forKey: "recent") == ["a"])
        #expect(store.plist(forKey: "nickname") == nil)
        #expect(
            Plist.dictionary(store.plistRepresentation()) == ["volume": 11, "theme": "Light", "recent": ["a"]])
        // A key's first typed use registers it too.
        let other = try Preferences(domain: "other", container: root.container, arguments: [], flushDelay: nil)
        #expect(other.plist(forKey: "theme") == nil)
        #expect(other[.theme] == "Light")
        #expect(other.string(forKey: "theme") == "Light")
        try store.synchronize()
        #expect(!root.files().contains("app.plist"))
    }

    /// The current value first, then each new value; without `initial`, only the new ones.
    @Test func updatesAreTyped() async throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let store = try store(root)
        var values = store.updates(.volume).makeAsyncIterator()
        var later = store.updates(.volume, initial: false).makeAsyncIterator()
        #expect(await values.next() == 5)
        store[.volume] = 6
        #expect(await values.next() == 6)
        #expect(await later.next() == 6)
        store.reset(.volume)
        #expect(await values.next() == 5)
        #expect(await later.next() == 5)
        store[.volume] = 8
        #expect(await later.next() == 8)
        #expect(await values.next() == 8)
    }
}
