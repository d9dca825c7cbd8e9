import Foundation
import PlistKit
import PlistStore
import Testing

/// Preferences keep keys that Swift's `String` calls equal apart, as CoreFoundation does: in
/// the store, and through `plistconv defaults`.
@Suite struct KeyIdentityDefaultsTests {
    @Test func defaultsWritesBothSpellings() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        for (key, number) in [("e\u{301}", "1"), ("\u{E9}", "2")] {
            let run = try Built.defaults(["write", "dom", key, "-int", number], root: root.path)
            #expect(run.status == 0, "\(run.stderr)")
        }
        #expect(try Built.defaults(["read", "dom", "e\u{301}"], root: root.path).stdout == "1\n")
        #expect(try Built.defaults(["read", "dom", "\u{E9}"], root: root.path).stdout == "2\n")
        let store = try Preferences(domain: "dom", container: root.container, arguments: [], flushDelay: nil)
        #expect(try store.persistentDomainPlist(forName: "dom")?.count == 2)
    }

    @Test func theStoreKeepsBothSpellings() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let store = try Preferences(domain: "dom", container: root.container, arguments: [], flushDelay: nil)
        store.set(1, forKey: "\u{212B}")
        store.set(2, forKey: "\u{C5}")
        #expect(store.integer(forKey: "\u{212B}") == 1 && store.integer(forKey: "\u{C5}") == 2)
        try store.synchronize()
        let other = try Preferences(domain: "dom", container: root.container, arguments: [], flushDelay: nil)
        #expect(other.integer(forKey: "\u{212B}") == 1 && other.integer(forKey: "\u{C5}") == 2)
        store.removeObject(forKey: "\u{C5}")
        try store.synchronize()
        try other.synchronize()
        #expect(other.integer(forKey: "\u{212B}") == 1 && other.object(forKey: "\u{C5}") == nil)
    }
}
