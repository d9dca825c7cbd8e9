/// `PlistWriteOptions.maxOutputBytes` as the text writers apply it.
///
/// A value whose arrays and dictionaries share storage (as a binary file's shared references
/// make them) is written in full by the text formats, so a few hundred bytes can stand for 2^64
/// leaves. Writers refuse such a value in two steps:
/// - before writing, `checkLeastSize` measures the fewest bytes the value can take (content,
///   one separator per value, indentation), once per shared storage, and refuses at once
///   a value that is sure to pass the limit, however many times its parts are shared;
/// - while writing, `check` runs before every value and key with the bytes it will take at
///   least, so the output passes the limit by at most one value's brackets and escapes.
struct OutputLimit {
    let maxBytes: Int
    let maxDepth: Int

    init(_ options: PlistWriteOptions) {
        maxBytes = options.maxOutputBytes
        maxDepth = options.maxDepth
    }

    var error: PlistError { PlistError(.outputTooLarge(limit: maxBytes), at: 0) }

    /// Throws `.outputTooLarge` unless `count` more bytes after `written` stay within the limit.
    func check(written: Int, adding count: Int) throws(PlistError) {
        guard count <= maxBytes - written else { throw error }
    }

    /// Throws `.outputTooLarge` when `value` is sure to take more bytes than the limit in a
    /// layout that indents each level of nesting by `indentation` bytes (0 for layouts without
    /// indentation); returns what was measured, from which a writer can size its output once.
    /// Containers nested deeper than `maxDepth` are not measured: the writer refuses them.
    @discardableResult
    func checkLeastSize(of value: Plist, indentation: Int) throws(PlistError) -> LeastSize.Size {
        var measure = LeastSize(
            cap: maxBytes == .max ? .max : maxBytes + 1, indentation: indentation, maxDepth: maxDepth)
        let size = measure.size(of: value, depth: 0)
        guard size.bytes <= maxBytes else { throw error }
        return size
    }
}

/// The fewest bytes a value takes in any text format, with sums that stop at `cap`.
struct LeastSize {
    /// Bytes and values of a subtree written at depth 0; at depth `d` it takes
    /// `bytes + values * d * indentation` bytes. Of those, `keys` dictionary keys, `dataBytes`
    /// bytes of data, and `scalars` numbers, dates and Booleans, counted as one byte each (and a
    /// UID as three: the text formats write it as a dictionary), which a writer that sizes its
    /// output from this lays out in more bytes than the least.
    struct Size {
        var bytes: Int
        var values: Int
        var keys = 0
        var dataBytes = 0
        var scalars = 0
    }

    let cap: Int
    let indentation: Int
    let maxDepth: Int
    /// The sizes of the containers measured so far, by their storage (so that a container
    /// shared 2^64 times is measured once).
    private var sizes = StorageTable<Size>()

    fileprivate init(cap: Int, indentation: Int, maxDepth: Int) {
        self.cap = cap
        self.indentation = indentation
        self.maxDepth = maxDepth
    }

    /// The size of `value` as written at depth 0; `depth` is where it stands, for the depth limit.
    fileprivate mutating func size(of value: Plist, depth: Int) -> Size {
        switch value {
        case .string, .data, .integer, .real, .bool, .date, .uid: return Self.scalarSize(value)!
        case .array(let elements):
            guard depth < maxDepth, !elements.isEmpty else { return Size(bytes: 2, values: 1) }
            let identity = Self.isSmallLeaf(elements) ? nil : StorageIdentity(elements)
            if let identity, let known = sizes[identity] { return known }
            var total = Size(bytes: 1, values: 1)
            // By index: each element is passed borrowed, not copied out (a retain and a release each).
            for index in elements.indices {
                // Measured before `add` is called: a call to a method of `self` in progress
                // holds a copy of `sizes`, and inserting would then copy the whole table.
                let child = Self.scalarSize(elements[index]) ?? size(of: elements[index], depth: depth + 1)
                add(child, to: &total)
                if total.bytes == cap { break }
            }
            if let identity { sizes.insert(total, for: identity) }
            return total
        case .dictionary(let entries):
            guard depth < maxDepth, !entries.isEmpty else { return Size(bytes: 2, values: 1) }
            let identity = Self.isSmallLeaf(entries.valueStorage) ? nil : StorageIdentity(entries)
            if let identity, let known = sizes[identity] { return known }
            var total = Size(bytes: 1, values: 1)
            let (keys, values) = (entries.keyStorage.keys, entries.valueStorage)
            for index in keys.indices {
                add(Size(bytes: keys[index].utf8.count, values: 0, keys: 1), to: &total)
                let child = Self.scalarSize(values[index]) ?? size(of: values[index], depth: depth + 1)
                add(child, to: &total)
                if total.bytes == cap { break }
            }
            if let identity { sizes.insert(total, for: identity) }
            return total
        }
    }

    /// The size of `value` when it is not a container. Measured without a call that could
    /// change anything, so that an element is read where it is, not copied out (a retain and a
    /// release each).
    @inline(__always)
    private static func scalarSize(_ value: Plist) -> Size? {
        switch value {
        case .string(let string): Size(bytes: string.utf8.count, values: 1)
        case .data(let data): Size(bytes: data.count, values: 1, dataBytes: data.count)
        case .uid: Size(bytes: 1, values: 1, scalars: 3)
        case .integer, .real, .bool, .date: Size(bytes: 1, values: 1, scalars: 1)
        case .array, .dictionary: nil
        }
    }

    /// Whether `values` are at most 16 scalars. Such a container is measured each time it is
    /// met, not looked up by its storage: hashing its identity costs about as much. The work
    /// stays bounded, since every container holding containers is measured once: a small leaf
    /// is met once per reference to it in those containers, at most 16 steps each.
    private static func isSmallLeaf(_ values: some RandomAccessCollection<Plist>) -> Bool {
        guard values.count <= 16 else { return false }
        for index in values.indices {
            switch values[index] {
            case .array, .dictionary: return false
            default: continue
            }
        }
        return true
    }

    /// Adds a child: one level deeper than its container, and followed by a separator (or, for
    /// the last one, by the closing bracket; the container starts with 1 byte, its opening one).
    private func add(_ child: Size, to total: inout Size) {
        let indent = multiply(child.values, indentation)
        total.bytes = sum(sum(total.bytes, child.bytes), sum(indent, 1))
        total.values = sum(total.values, child.values)
        total.keys = sum(total.keys, child.keys)
        total.dataBytes = sum(total.dataBytes, child.dataBytes)
        total.scalars = sum(total.scalars, child.scalars)
    }

    private func sum(_ a: Int, _ b: Int) -> Int {
        let (result, overflow) = a.addingReportingOverflow(b)
        return overflow || result > cap ? cap : result
    }

    private func multiply(_ a: Int, _ b: Int) -> Int {
        let (result, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow || result > cap ? cap : result
    }
}
