import PlistCore

/// The fast path's state while it indexes one document into an `XMLTable` (`XMLScanner` is its
/// entry). Its methods are split by the part of the document they read:
/// `XMLTableBuilder+Document.swift` the prolog around the root (declaration, doctype, comments),
/// `XMLTableBuilder+Values.swift` the values and the key checks, `XMLTableBuilder+Markup.swift`
/// the tags, text and white space.
struct XMLTableBuilder {
    /// The document is not one the scanner reads.
    struct Decline: Error {}

    enum Element {
        case plist
        case value(XMLTable.Kind)
    }

    /// An open `dict` or `array`.
    struct Frame {
        var node: Int
        var isDictionary: Bool
        /// Where this container's children start in `pending`.
        var firstPending: Int
        /// In a dictionary: a key was read, its value comes next.
        var expectsValue = false
        /// The previous key, to see whether the keys are in ascending order.
        var previousKey: XMLTable.Node? = nil
        var isSorted = true
        /// A key is escaped or not ASCII: bytes do not show whether two keys are equal.
        var needsKeyCheck = false
    }

    var budget: ReadBudget
    var nodes: [XMLTable.Node] = []
    var children: [Int32] = []
    var keyPrefixes: [UInt64] = []
    var keyEntries: [UInt32] = []
    /// Per container, in document order: its node (high 32 bits) and where its start tag ends.
    var containerStarts: [UInt64] = []
    /// The children of the open containers, innermost last.
    var pending: [Int32] = []
    /// The innermost open container (kept apart: it changes at every element), and the others.
    var current: Frame?
    var outer: [Frame] = []
    var position = 0
    /// The keys of the dictionary being sorted, and a copy of its rows of `keyPrefixes` (both
    /// kept for their room).
    var keyOrder: [UInt128] = []
    var keyRows: [UInt64] = []
    /// `checkUnsortedKeys`' table of rows (kept for its room).
    var keyTable: KeyRowTable?
    /// The table is for `XMLTable.plist()`, which makes UIDs of `CF$UID` dictionaries and
    /// reads repeated keys as the libxml2 reader does: such dictionaries are kept, not declined.
    /// (The Codable decoder reads the table in place, and finds a key by its first entry.)
    var isForTree = false

    /// How `<date>` text is read.
    let rules: FoundationRules

    init(options: PlistReadOptions) {
        budget = ReadBudget(options)
        rules = options.rules
    }
}
