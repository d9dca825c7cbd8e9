import Synchronization

/// Objects of the process found by a key without being kept alive by it: the live domain stores
/// by their file (`DomainStore.shared`), the live `Preferences` flushed at exit (`ExitFlush`).
/// An object nothing else holds is freed, and its entry is dropped by its `deinit` or found empty.
final class WeakRegistry<Key: Hashable & Sendable, Object: AnyObject & Sendable>: Sendable {
    private struct Entry: @unchecked Sendable {
        // Only read under the registry's lock.
        weak var object: Object?
    }

    private let table = Mutex<[Key: Entry]>([:])

    init() {}

    /// The live object of `key`, else the one `make` makes, registered (under the lock, so that
    /// two callers get the same object).
    func object(_ key: Key, orMake make: () -> sending Object) -> Object {
        table.withLock { table in
            if let object = table[key]?.object { return object }
            let object = make()
            table[key] = Entry(object: object)
            return object
        }
    }

    func register(_ object: Object, as key: Key) {
        table.withLock { $0[key] = Entry(object: object) }
    }

    /// Drops the entry of `key` if its object is gone (a `deinit`: another object may have taken
    /// the key since).
    func dropIfGone(_ key: Key) {
        table.withLock { table in
            if let entry = table[key], entry.object == nil { table[key] = nil }
        }
    }

    func drop(_ key: Key) {
        _ = table.withLock { $0.removeValue(forKey: key) }
    }

    /// The live objects.
    var objects: [Object] { table.withLock { $0.values.compactMap(\.object) } }
}
