extension Plist: ExpressibleByStringLiteral {
    /// A `.string`.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension Plist: ExpressibleByIntegerLiteral {
    /// An `.integer`; literals outside `Int64.min...UInt64.max` trap.
    public init(integerLiteral value: StaticBigInt) { self = .integer(PlistInteger(integerLiteral: value)) }
}

extension Plist: ExpressibleByFloatLiteral {
    /// A `.real`.
    public init(floatLiteral value: Double) { self = .real(value) }
}

extension Plist: ExpressibleByBooleanLiteral {
    /// A `.bool`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension Plist: ExpressibleByArrayLiteral {
    /// An `.array`.
    public init(arrayLiteral elements: Plist...) { self = .array(elements) }
}

extension Plist: ExpressibleByDictionaryLiteral {
    /// A `.dictionary` in the literal's order; a repeated key traps, as with `Dictionary`.
    public init(dictionaryLiteral elements: (String, Plist)...) {
        self = .dictionary(PlistDictionary(uniqueKeysWithValues: elements))
    }
}
