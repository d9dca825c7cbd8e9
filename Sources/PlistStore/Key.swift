import PlistKit
import Synchronization

extension Preferences {
    /// A typed key with its default, in the style of sindresorhus/Defaults:
    ///
    /// ```swift
    /// extension Preferences.Key where Value == Int {
    ///     static let volume = Self("volume", default: 5)
    /// }
    /// preferences[.volume] += 1
    /// ```
    ///
    /// The value is stored as the property-list tree `PlistEncoder` makes of it. For an
    /// optional `Value`, nil removes the key. The default is registered (see
    /// ``Preferences/register(_:)``) the first time the key is used through a store.
    public struct Key<Value: Codable & Sendable>: Sendable {
        /// The key in the domain.
        public let name: String
        /// What reading gives when no domain has the key or its value is not a `Value`.
        public let defaultValue: Value

        /// A key named `name` whose value is `defaultValue` until one is set.
        public init(_ name: String, default defaultValue: Value) {
            self.name = name
            self.defaultValue = defaultValue
        }
    }

    /// The value of `key`, decoded, or its default. Setting nil (for an optional `Value`)
    /// removes the key; setting a value that cannot be encoded reports the error to the error
    /// handler and changes nothing.
    public subscript<Value>(key: Key<Value>) -> Value {
        get {
            registerDefault(of: key)
            return ((try? decode(Value.self, forKey: key.name)) ?? nil) ?? key.defaultValue
        }
        set {
            if let optional = newValue as? any OptionalValue, optional.isNone {
                removeObject(forKey: key.name)
                return
            }
            do { try encode(newValue, forKey: key.name) } catch { errorHandler(error) }
        }
    }

    /// Removes the keys from the store's domain, so that they read as their defaults again
    /// (or as a value another domain of the search list holds).
    public func reset<each Value>(_ keys: repeat Key<each Value>) {
        for key in repeat each keys { removeObject(forKey: key.name) }
    }

    /// Registers the keys' defaults (see ``register(defaults:)``), so that untyped lookups
    /// (``plist(forKey:)``, ``integer(forKey:)``, ``dictionaryRepresentation()``) see them before
    /// the keys' first typed use. A value already registered for a key is kept; a nil default
    /// registers nothing.
    public func register<each Value>(_ keys: repeat Key<each Value>) {
        for key in repeat each keys { registerDefault(of: key) }
    }

    /// The values of `key`: its current value first (with `initial`), then, for each change to
    /// it in the searched persistent domains that ``changes(forKey:)`` reports, its value when
    /// the iterator takes that change. Ends when the task is cancelled.
    public func updates<Value>(_ key: Key<Value>, initial: Bool = true) -> PreferenceUpdates<Value> {
        PreferenceUpdates(store: self, key: key, changes: changes(forKey: key.name), initial: initial)
    }

    private func registerDefault<Value>(of key: Key<Value>) {
        guard own.cache.withLock({ $0.registration[key.name] == nil }) else { return }
        if let optional = key.defaultValue as? any OptionalValue, optional.isNone { return }
        guard let value = try? PlistEncoder().encodeToPlist(key.defaultValue) else { return }
        own.cache.withLock { cache in
            if cache.registration[key.name] == nil { cache.registration[key.name] = value }
        }
    }
}

/// The values of a typed key over time (see ``Preferences/updates(_:initial:)``).
public struct PreferenceUpdates<Value: Codable & Sendable>: AsyncSequence, Sendable {
    public typealias Element = Value
    public typealias Failure = Never

    let store: Preferences
    let key: Preferences.Key<Value>
    let changes: PreferenceChanges
    let initial: Bool

    public func makeAsyncIterator() -> Iterator {
        Iterator(store: store, key: key, changes: changes.makeAsyncIterator(), pendingInitial: initial)
    }

    /// Waits for the next value; ends when the task is cancelled.
    public struct Iterator: AsyncIteratorProtocol {
        let store: Preferences
        let key: Preferences.Key<Value>
        var changes: PreferenceChanges.Iterator
        var pendingInitial: Bool

        public mutating func next() async -> Value? {
            if pendingInitial {
                pendingInitial = false
                return store[key]
            }
            guard await changes.next() != nil else { return nil }
            return store[key]
        }
    }
}

/// Whether a value is `Optional.none`, for a typed key whose `Value` is optional.
protocol OptionalValue {
    var isNone: Bool { get }
}

extension Optional: OptionalValue {
    var isNone: Bool { self == nil }
}
