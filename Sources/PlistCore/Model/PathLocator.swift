/// A step on the way to a value inside a property list: a dictionary key or an array index.
/// An array of steps is a typed key path: unlike `PlistKeyPath`'s text, a key is never taken
/// for an index, and no character needs escaping.
public enum PlistPathStep: Hashable, Sendable {
    /// The value of this key, in a dictionary.
    case key(String)
    /// The element at this index (from 0), in an array.
    case index(Int)
}

/// Finds where the value at a path begins while a reader reads the text around it, for error
/// messages about a value that read well but did not fit (such as a `Decodable` type's). Readers
/// call `enter` as every dictionary value and array element begins; a `Mark` (a byte offset, or
/// a line and column) is kept only for values on the path.
package struct PathLocator<Mark> {
    private let path: [PlistPathStep]
    /// How many steps of `path` lead to the value being read.
    private var matched = 0
    /// Where the deepest value on the path found so far begins.
    package private(set) var mark: Mark?

    package init(path: [PlistPathStep]) { self.path = path }

    /// A dictionary value (for `.key`) or array element (for `.index`) that is `depth`
    /// containers deep (the top value is 0) begins at `mark`.
    package mutating func enter(_ step: PlistPathStep, depth: Int, at mark: Mark) {
        // Leaving the value an earlier sibling was: the path may now only pass through the parent.
        matched = min(matched, depth - 1)
        guard matched == depth - 1, matched < path.count, path[matched] == step else { return }
        matched = depth
        self.mark = mark
    }

    /// The top value begins at `mark`: the place of an error about the top value itself (a key
    /// missing from the top dictionary), until a value deeper on the path begins.
    package mutating func enterTop(at mark: Mark) {
        if matched == 0 { self.mark = mark }
    }
}

extension Plist {
    /// Where the value at `path`, or the deepest value on it, begins in JSON text that reads.
    package static func position(of path: [PlistPathStep], inJSON bytes: [UInt8], options: PlistReadOptions)
        -> TextPosition?
    {
        JSONReader.position(of: path, in: bytes, options: options)
    }

    /// Where the value at `path`, or the deepest value on it, begins in OpenStep or `.strings`
    /// text that reads.
    package static func position(of path: [PlistPathStep], inOpenStep bytes: [UInt8], options: PlistReadOptions)
        -> TextPosition?
    {
        OpenStepReader.position(of: path, in: bytes, options: options)
    }
}
