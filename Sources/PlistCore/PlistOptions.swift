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
    /// XML: sort dictionary keys as Foundation does (the default), or keep each dictionary's own order.
    public var sortsKeys: Bool = true
    /// The most bytes a text format (XML) may write. A value whose arrays and dictionaries share
    /// storage (as a binary file's shared references make them) is written in full by text
    /// formats, so a small value can stand for an enormous document; the binary format keeps
    /// the sharing and is not limited.
    public var maxOutputBytes: Int

    /// Options with the given limits and key order.
    public init(maxDepth: Int = 512, sortsKeys: Bool = true, maxOutputBytes: Int = 1 << 29) {
        self.maxDepth = maxDepth
        self.sortsKeys = sortsKeys
        self.maxOutputBytes = maxOutputBytes
    }
}
