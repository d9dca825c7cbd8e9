/// Limits that keep reading untrusted input safe. The defaults suit any real file and keep a
/// small machine safe from hostile ones; raise them for unusually large or deep files.
public struct PlistReadOptions: Hashable, Sendable {
    /// The deepest nesting of arrays and dictionaries accepted (the top container is depth 1).
    public var maxDepth: Int
    /// The most values accepted in the result, counting a value shared through references once
    /// for every place it appears (this bounds files that describe huge trees in a few bytes).
    public var maxObjects: Int
    /// The most bytes of string and data content accepted in the result, counting a value shared
    /// through references once for every place it appears (this bounds what a writer of another
    /// format produces from a small file).
    public var maxContentBytes: Int

    /// Options with the given limits.
    public init(maxDepth: Int = 512, maxObjects: Int = 1 << 24, maxContentBytes: Int = 1 << 30) {
        self.maxDepth = maxDepth
        self.maxObjects = maxObjects
        self.maxContentBytes = maxContentBytes
    }
}

/// Options for writing.
public struct PlistWriteOptions: Hashable, Sendable {
    /// The deepest nesting of arrays and dictionaries written; deeper values are rejected rather
    /// than written, since readers with the default limits would refuse them.
    public var maxDepth: Int
    /// XML and OpenStep: sort dictionary keys as Foundation does (the default), or keep each
    /// dictionary's own order.
    public var sortsKeys: Bool = true
    /// OpenStep and `.strings`: what becomes of values plain OpenStep cannot hold.
    public var openStepValues: OpenStepValues = .strict

    /// Options with the given limits, key order and OpenStep values.
    public init(maxDepth: Int = 512, sortsKeys: Bool = true, openStepValues: OpenStepValues = .strict) {
        self.maxDepth = maxDepth
        self.sortsKeys = sortsKeys
        self.openStepValues = openStepValues
    }
}

/// What the OpenStep writer does with integers, reals, Booleans, dates and UIDs, which plain
/// OpenStep (strings, data, arrays and dictionaries) cannot hold.
public enum OpenStepValues: Hashable, Sendable {
    /// Fail, naming the key path of the first such value.
    case strict
    /// Write them as strings: numbers exactly, Booleans `YES`/`NO`, dates as
    /// `2001-01-01 00:00:00 +0000`, UIDs as their number (reading back gives strings).
    case strings
    /// Write GNUstep's typed values (`<*I12>`, `<*R0.5>`, `<*BY>`, `<*D2001-01-01 00:00:00 +0000>`;
    /// a UID as `{CF$UID = <*I5>;}`), which read back to the same value.
    case gnustep
}
