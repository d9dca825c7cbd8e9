import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Flushes the live stores when the process ends normally (`exit`, or a return from `main`),
/// through one `atexit` handler installed with the first store.
enum ExitFlush {
    private struct Entry: @unchecked Sendable {
        // The store is only read under the registry's lock; the reference is weak so that a
        // store is still freed (and flushed by its deinit) when its owner lets it go.
        weak var store: Preferences?
    }

    private static let stores = Mutex<[ObjectIdentifier: Entry]>([:])
    private static let installed: Bool = {
        atexit { ExitFlush.flushAll() }
        return true
    }()

    static func register(_ store: Preferences) {
        _ = installed
        stores.withLock { $0[ObjectIdentifier(store)] = Entry(store: store) }
    }

    static func unregister(_ store: Preferences) {
        _ = stores.withLock { $0.removeValue(forKey: ObjectIdentifier(store)) }
    }

    private static func flushAll() {
        let live = stores.withLock { $0.values.compactMap(\.store) }
        for store in live { store.flushAll(reporting: true) }
    }
}
