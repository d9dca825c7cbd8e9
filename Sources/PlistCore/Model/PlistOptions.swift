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

    /// JSON: the value a `null` stands for; `nil` (the default) makes `null` an error, since
    /// property lists have no null.
    public var jsonNull: Plist?
    /// Whose rules XML `<date>` text is read by: CoreFoundation's (`Plist(xml:)`), or
    /// Foundation's coders' (PlistKit's decoder sets it).
    package var rules = FoundationRules.coreFoundation

    /// Options with the given limits.
    public init(maxDepth: Int = 512, maxObjects: Int = 1 << 24, maxContentBytes: Int = 1 << 30, jsonNull: Plist? = nil)
    {
        self.maxDepth = maxDepth
        self.maxObjects = maxObjects
        self.maxContentBytes = maxContentBytes
        self.jsonNull = jsonNull
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
    /// JSON: what becomes of dates, data, UIDs and non-finite reals, which JSON has no type for.
    public var jsonValues: JSONValues = .typed
    /// JSON: indented (two spaces, `"key" : value`, as plutil's `-r`) rather than compact.
    public var indentsJSON = false
    /// The most bytes a text format (XML, JSON, OpenStep, `.strings`, an Xcode project, Swift or
    /// Objective-C source) may write. A value whose arrays and dictionaries share
    /// storage (as a binary file's shared references make them) is written in full by text
    /// formats, so a small value can stand for an enormous document; the binary format keeps
    /// the sharing and is not limited. The default, 256 MiB, is seven times the largest real XML
    /// property list we know of (a 37.5 MB iTunes library).
    public var maxOutputBytes: Int
    /// Whose rules XML dates and reals are written by: CoreFoundation's (`Plist.xmlBytes`), or
    /// Foundation's coders' (PlistKit's encoder sets it).
    package var rules = FoundationRules.coreFoundation

    /// Options with the given limits, key order, and OpenStep and JSON forms.
    public init(
        maxDepth: Int = 512, sortsKeys: Bool = true, openStepValues: OpenStepValues = .strict,
        jsonValues: JSONValues = .typed, indentsJSON: Bool = false, maxOutputBytes: Int = 1 << 28
    ) {
        self.maxDepth = maxDepth
        self.sortsKeys = sortsKeys
        self.openStepValues = openStepValues
        self.jsonValues = jsonValues
        self.indentsJSON = indentsJSON
        self.maxOutputBytes = maxOutputBytes
    }
}

extension PlistWriteOptions {
    /// What the JSON writer does with dates, data, UIDs and non-finite reals.
    public enum JSONValues: Hashable, Sendable {
        /// Fail like plutil, naming the key path of the first such value.
        case strict
        /// Write what JSON readers expect: dates as ISO 8601 strings (seconds since 2001 outside the
        /// years 1...9999), data as base64 strings, UIDs as integers, non-finite reals as the strings
        /// `"NaN"`, `"Infinity"`, `"-Infinity"`. Reading back gives those strings and numbers, not the
        /// original types.
        case lossy
        /// Write tagged objects (`{"$date": "..."}`, `{"$data": "..."}`, `{"$uid": 5}`,
        /// `{"$real": "nan"}`) that this package reads back to exactly the original value.
        case typed
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
}
