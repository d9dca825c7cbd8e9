import Foundation
import PlistFoundation
import PlistKit
import PlistStore
import Synchronization
import Testing

/// Code written for `UserDefaults`, moved to `Preferences` by changing the type (issue 45 items
/// 6 and 7): it works as it did, or does not compile. Before: the container casts compiled and
/// gave nil, the task's loop missed the change made right after it was started, and
/// `observe(forKey:_:)` did not compile; the notification never came.
@Suite(.timeLimit(.minutes(10)))
struct UserDefaultsPortTests {
    @Test func containerGettersCastAsWithUserDefaults() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let defaults = try Preferences(domain: "app", container: root.container, arguments: [], flushDelay: nil)
        let names = ["Ada", "Grace"]
        let window: [String: Int] = ["width": 640, "height": 480]
        defaults.set(names, forKey: "names")
        defaults.set(window, forKey: "window")

        let width = defaults.dictionary(forKey: "window")?["width"] as? Int
        #expect(width == 640)
        #expect(defaults.array(forKey: "names") as? [String] == names)
        #expect(defaults.stringArray(forKey: "names") == names)
        #expect(defaults.dictionary(forKey: "window") as? [String: Int] == window)
        #expect(defaults.object(forKey: "window") as? [String: Int] == window)
        #expect(defaults.dictionary(forKey: "names") == nil)
        #expect(defaults.array(forKey: "window") == nil)
    }

    /// The domain getters give Swift values too, as `UserDefaults`' do.
    @Test func domainGettersCastAsWithUserDefaults() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let defaults = try Preferences(domain: "app", container: root.container, arguments: [], flushDelay: nil)
        let theme = "Dark"
        defaults.set(theme, forKey: "theme")
        defaults.setVolatileDomain(["count": 2], forName: "session")
        #expect(try defaults.persistentDomain(forName: "app")?["theme"] as? String == theme)
        #expect(defaults.dictionaryRepresentation()["theme"] as? String == theme)
        #expect(defaults.volatileDomain(forName: "session")["count"] as? Int == 2)
    }

    /// A change made after the sequence is made arrives, though the task that iterates it has not
    /// started yet.
    @Test func aTaskStartedBeforeTheChangeSeesIt() async throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let defaults = try Preferences(domain: "app", container: root.container, arguments: [], flushDelay: nil)
        let themeChanges = defaults.changes(forKey: "theme")
        let seen = Task { () -> Plist? in
            for await change in themeChanges { return change.value }
            return nil
        }
        defaults.set("Dark", forKey: "theme")
        #expect(await firstOf(seen) == "Dark")
    }

    @Test func aClosureObservesFromTheCallOn() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let defaults = try Preferences(domain: "app", container: root.container, arguments: [], flushDelay: nil)
        let themes = Mutex<[String]>([])
        let observation = defaults.observe(forKey: "theme") { change in
            themes.withLock { $0.append(change.value?.string ?? "removed") }
        }
        defaults.set("Dark", forKey: "theme")
        defaults.set(1, forKey: "other")
        defaults.removeObject(forKey: "theme")
        #expect(themes.withLock { $0 } == ["Dark", "removed"])
        observation.cancel()
        defaults.set("Light", forKey: "theme")
        #expect(themes.withLock { $0 } == ["Dark", "removed"])
    }

    /// Observer code written for `UserDefaults.didChangeNotification`, unchanged.
    @Test func postsUserDefaultsDidChangeNotification() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let defaults = try Preferences(domain: "app", container: root.container, arguments: [], flushDelay: nil)
        let other = try Preferences(domain: "other", container: root.container, arguments: [], flushDelay: nil)
        let count = Mutex(0)
        let observer = NotificationCenter.default.addObserver(
            forName: UserDefaults.didChangeNotification, object: defaults, queue: nil
        ) { notification in
            if (notification.object as AnyObject) === defaults { count.withLock { $0 += 1 } }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        defaults.set("Dark", forKey: "theme")
        other.set("Dark", forKey: "theme")
        #expect(count.withLock { $0 } == 1)
    }

    /// The task's result, or nil after 5 seconds (then the task is cancelled).
    private func firstOf(_ task: Task<Plist?, Never>) async -> Plist? {
        await withTaskGroup(of: Plist?.self) { group in
            group.addTask { await task.value }
            group.addTask {
                try? await Task.sleep(for: .seconds(5))
                task.cancel()
                return nil
            }
            let first = await group.next() ?? nil
            task.cancel()
            group.cancelAll()
            return first
        }
    }
}
