import Foundation
import PlistKit
import Synchronization
import Testing

@testable import PlistStore

#if canImport(Glibc)
import Glibc
#endif

/// Stores of one domain in one process share what they hold, and a flush's disk work never
/// holds up a lookup.
@Suite(.timeLimit(.minutes(10)))
struct PreferencesSharingTests {
    func store(_ root: TemporaryRoot, _ domain: String = "app") throws -> Preferences {
        try Preferences(domain: domain, container: root.container, arguments: [], flushDelay: nil)
    }

    @Test func storesOfOneDomainShareWhatTheyHold() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let first = try store(root)
        let second = try store(root)
        _ = second.plist(forKey: "k")  // read before the change, as a long-lived object would
        first.set("one", forKey: "k")
        #expect(second.string(forKey: "k") == "one", "seen at once, without synchronize()")
        second.removeObject(forKey: "k")
        #expect(first.plist(forKey: "k") == nil)
        // A suite and the global domain are shared too.
        try first.addSuite(named: "group.x")
        let suite = try store(root, "group.x")
        suite.set(1, forKey: "s")
        #expect(first.integer(forKey: "s") == 1)
        let global = try store(root, Preferences.globalDomain)
        global.set("en", forKey: "AppleLanguage")
        #expect(first.string(forKey: "AppleLanguage") == "en")
        // The registration domain of one domain's stores is one too.
        first.register(defaults: ["registered": 7])
        #expect(second.integer(forKey: "registered") == 7)
    }

    /// `setPersistentDomain` is seen at once by a new store and by a store that had read the
    /// domain, and is on disk when it returns, as Foundation's.
    @Test func persistentDomainCallsAreVisibleAtOnce() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let reader = try store(root, "other")
        #expect(reader.plist(forKey: "a") == nil)
        let writer = try store(root)
        try writer.setPersistentDomain(["a": 1], forName: "other")
        #expect(try root.domain("other") == ["a": 1])
        #expect(reader.integer(forKey: "a") == 1)
        #expect(try store(root, "other").integer(forKey: "a") == 1)
        try writer.removePersistentDomain(forName: "other")
        #expect(!root.files().contains("other.plist"))
        #expect(reader.plist(forKey: "a") == nil)
    }

    /// While a flush waits for the domain's lock (held here, as another process's slow write
    /// would hold it), lookups and changes of the same store go on, and the change made
    /// meanwhile stays pending for the next flush. (Threads of their own: a blocked lookup
    /// must not block the test.)
    @Test func lookupsNeverWaitForAFlush() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let store = try store(root)
        store.set(1, forKey: "a")
        try store.synchronize()
        let lock = open(root.preferences + "/app.plist.lock", O_RDWR)
        try #require(lock >= 0)
        defer { close(lock) }
        #expect(flock(lock, LOCK_EX) == 0)
        store.set(2, forKey: "a")
        let flushed = Mutex<Bool?>(nil)
        Thread.detachNewThread {
            let done = (try? store.synchronize()) != nil
            flushed.withLock { $0 = done }
        }
        // Until the flush has taken the pending change (it then waits for the lock, which it
        // cannot pass).
        for _ in 0..<1_000 where store.own.hasPendingChanges { usleep(1_000) }
        #expect(!store.own.hasPendingChanges, "the flush took the change")
        let looked = Mutex<Int?>(nil)
        Thread.detachNewThread {
            store.set(3, forKey: "b")
            let seen = store.integer(forKey: "a") * 10 + store.integer(forKey: "b")
            looked.withLock { $0 = seen }
        }
        func wait<T: Sendable>(_ value: borrowing Mutex<T?>) -> T? {
            for _ in 0..<1_000 {
                if let result = value.withLock({ $0 }) { return result }
                usleep(10_000)
            }
            return nil
        }
        #expect(wait(looked) == 23, "the lookup waited for the flush")
        #expect(flushed.withLock { $0 } == nil)
        #expect(try root.domain("app") == ["a": 1], "the flush waits for the lock")
        flock(lock, LOCK_UN)
        #expect(wait(flushed) == true)
        #expect(try root.domain("app") == ["a": 2], "b came after the flush took its changes")
        try store.synchronize()
        #expect(try root.domain("app") == ["a": 2, "b": 3])
    }
}
