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
    /// The value is stored as the property-list tree `PlistEncoder` makes of it.
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

    /// The value of `key`, decoded, or its default. Setting a value that cannot be encoded
    /// reports the error to the error handler and changes nothing.
    public subscript<Value>(key: Key<Value>) -> Value {
        get { ((try? decode(Value.self, forKey: key.name)) ?? nil) ?? key.defaultValue }
        set {
            do { try encode(newValue, forKey: key.name) } catch { errorHandler(error) }
        }
    }
}
