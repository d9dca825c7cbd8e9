/// How much a reader may build from untrusted input: the limits of `PlistReadOptions` (nesting
/// depth, values, bytes of string and data content) and what has been counted against them.
/// Every reader checks its input with one, so hostile input meets the same policy in every
/// format, and the same kind of error: `.tooDeep`, `.tooManyObjects` or `.tooMuchContent`.
///
/// Shared references count at every use: a value stands for itself and everything inside it,
/// however often the input refers to it, so a small binary file whose references describe 2^64
/// values is refused. Text readers count each value as they read it (`count(objects:at:)`,
/// `count(contentBytes:at:)`); the binary readers, which meet a shared value once, weigh each
/// container from the weights of its children (`add(_:to:at:)`).
///
/// The checks are an addition, a compare and a branch, inlined (in other modules too): the
/// binary reader and the XML scanner make them for every value.
package struct ReadBudget {
    /// Containers may be nested this deep (the top-level value is at depth 0).
    package let maxDepth: Int
    /// At most this many values, containers included.
    package let maxObjects: Int
    /// At most this many bytes of string (keys included) and data content.
    package let maxContentBytes: Int
    /// What `count(objects:at:)` and `count(contentBytes:at:)` have counted so far.
    package var counted = Weight()

    /// What a value stands for when expanded: how many values (itself and everything inside
    /// it) and how many bytes of string and data content.
    package struct Weight: Equatable, Sendable {
        package var objects: Int
        package var contentBytes: Int

        package init(objects: Int = 0, contentBytes: Int = 0) {
            self.objects = objects
            self.contentBytes = contentBytes
        }
    }

    package init(_ options: PlistReadOptions) {
        maxDepth = options.maxDepth
        maxObjects = options.maxObjects
        maxContentBytes = options.maxContentBytes
    }

    /// Forgets what was counted, for a reader that starts the input over.
    package mutating func restart() { counted = Weight() }

    /// Checks that a container found inside `depth` containers may be entered.
    /// - Throws: `.tooDeep` at `offset`.
    @inlinable @inline(__always)
    package func enter(depth: Int, at offset: Int) throws(PlistError) {
        guard depth < maxDepth else { throw PlistError(.tooDeep(limit: maxDepth), at: offset) }
    }

    /// Counts `objects` more values.
    /// - Throws: `.tooManyObjects` at `offset` when they pass `maxObjects`.
    @inlinable @inline(__always)
    package mutating func count(objects: Int, at offset: Int) throws(PlistError) {
        counted.objects = try Self.sum(
            counted.objects, objects, limit: maxObjects, at: offset, PlistError.Kind.tooManyObjects)
    }

    /// Counts `contentBytes` more bytes of string or data content.
    /// - Throws: `.tooMuchContent` at `offset` when they pass `maxContentBytes`.
    @inlinable @inline(__always)
    package mutating func count(contentBytes: Int, at offset: Int) throws(PlistError) {
        counted.contentBytes = try Self.sum(
            counted.contentBytes, contentBytes, limit: maxContentBytes, at: offset, PlistError.Kind.tooMuchContent)
    }

    /// Counts one value of `contentBytes` bytes of string or data content (0 for other values).
    /// - Throws: `.tooManyObjects` or `.tooMuchContent` at `offset`.
    @inlinable @inline(__always)
    package mutating func countValue(contentBytes: Int, at offset: Int) throws(PlistError) {
        try count(objects: 1, at: offset)
        try count(contentBytes: contentBytes, at: offset)
    }

    /// Adds `part` (a child's weight) to `total` (its container's), values first.
    /// - Throws: `.tooManyObjects` or `.tooMuchContent` at `offset` when the total passes a limit;
    ///   `total` is then unchanged.
    @inlinable @inline(__always)
    package func add(_ part: Weight, to total: inout Weight, at offset: Int) throws(PlistError) {
        let objects = try Self.sum(
            total.objects, part.objects, limit: maxObjects, at: offset, PlistError.Kind.tooManyObjects)
        total.contentBytes = try Self.sum(
            total.contentBytes, part.contentBytes, limit: maxContentBytes, at: offset, PlistError.Kind.tooMuchContent)
        total.objects = objects
    }

    /// Adds `contentBytes` (a key's, which is no value of its own) to `total`.
    /// - Throws: `.tooMuchContent` at `offset` when the total passes `maxContentBytes`.
    @inlinable @inline(__always)
    package func add(contentBytes: Int, to total: inout Weight, at offset: Int) throws(PlistError) {
        total.contentBytes = try Self.sum(
            total.contentBytes, contentBytes, limit: maxContentBytes, at: offset, PlistError.Kind.tooMuchContent)
    }

    /// `total + added`, which must not pass `limit`; else the error `kind(limit)`.
    @inlinable @inline(__always)
    static func sum(
        _ total: Int, _ added: Int, limit: Int, at offset: Int, _ kind: (_ limit: Int) -> PlistError.Kind
    ) throws(PlistError) -> Int {
        let (sum, overflow) = total.addingReportingOverflow(added)
        guard !overflow, sum <= limit else { throw PlistError(kind(limit), at: offset) }
        return sum
    }
}
