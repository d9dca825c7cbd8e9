import OrderedCollections

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A coding path built as a linked list, so that decoding a value costs no array; the array is
/// made only when a container or an error asks for it.
indirect enum CodingPathNode: Sendable {
    case root
    case key(any CodingKey & Sendable, CodingPathNode)
    case index(Int, CodingPathNode)

    var array: [any CodingKey] {
        var keys: [any CodingKey] = []
        var node = self
        while true {
            switch node {
            case .root: return keys.reversed()
            case .key(let key, let parent):
                keys.append(key)
                node = parent
            case .index(let index, let parent):
                keys.append(PlistCodingKey(index: index))
                node = parent
            }
        }
    }
}

/// A coding key for array indexes, `super`, and keys made by key strategies.
struct PlistCodingKey: CodingKey, Sendable {
    /// The key's string; `nil` for an array index, whose string ("Index 3", as Foundation's)
    /// is made only when asked for: the encoder makes a key for every element.
    private let name: String?
    let intValue: Int?

    var stringValue: String { name ?? "Index \(intValue ?? 0)" }

    init(stringValue: String) {
        name = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        name = String(intValue)
        self.intValue = intValue
    }

    init(index: Int) {
        name = nil
        intValue = index
    }

    init(_ key: some CodingKey) {
        name = key.stringValue
        intValue = key.intValue
    }

    static let superKey = PlistCodingKey(stringValue: "super")
}

/// A value being decoded: in a `Plist` tree, or a node of an indexed document (a binary file's
/// object, an XML document's node) read as it is needed.
enum DecodingNode {
    case value(Plist)
    case object(Int)
}

/// How a value is reached from the value of the container it is in.
enum PathStep {
    /// The same place (a decoder handed to a `Decodable` type for the value being unboxed).
    case same
    case key(PlistCodingKey)
    case index(Int)
}

/// The options every decoder of one `decode` call shares.
final class DecodingContext {
    let options: PlistValueDecoder.Options

    init(options: PlistValueDecoder.Options) { self.options = options }
}

/// The `Decoder` for one value. Values in a tree and in an indexed document go through the same
/// containers and conversions: an indexed node's value is read straight from the document when
/// it has the type asked for, and otherwise read as a `Plist` and converted as a tree value is.
final class PlistValueDecoder: Decoder {
    struct Options {
        var userInfo: [CodingUserInfoKey: any Sendable]
        var keys: PlistDecoder.KeyDecodingStrategy
        var dates: PlistDecoder.DateDecodingStrategy
        /// Whether strings also decode as numbers, Booleans and URLs: for text formats this
        /// package reads beyond Foundation's (OpenStep and `.strings` have only strings, and
        /// JSON coders write URLs as strings). Binary, XML and `Plist` values decode exactly as
        /// Foundation's decoder decodes them: `try? decode(Int.self)` on a string fails there
        /// too, and a fallback gets the string.
        var readsValuesFromStrings = false
        /// Whether a real decodes as the nearest `Float` (Foundation's XML decoder parses the
        /// text as one) rather than only when it is exactly one (binary, `Plist` values).
        var roundsRealsToFloat = false

        /// The coding key's string that the key strategy makes of `key`, a key of the
        /// dictionary at `codingPath`.
        func codingKeyName(of key: String, at codingPath: @autoclosure () -> [any CodingKey]) -> String {
            switch keys {
            case .useDefaultKeys: key
            case .convertFromSnakeCase: KeyCase.camelCase(fromSnakeCase: key)
            case .custom(let convert): convert(codingPath() + [PlistCodingKey(stringValue: key)]).stringValue
            }
        }
    }

    /// The value. Unchecked, as `step`: both change only in `child(_:_:reusing:)`, on a decoder
    /// nothing else holds, so no access overlaps another, and a checked access cost more than
    /// the allocation that reusing the decoder saves.
    @exclusivity(unchecked) private var storedNode: DecodingNode
    var node: DecodingNode { unsafe storedNode }
    let context: DecodingContext
    /// The document `.object` nodes are in (a `let` here, so that calls need no retain).
    let source: (any IndexedPlist)?
    /// How many containers this value is inside.
    let depth: Int
    /// The decoder of the value this one is inside (`nil` at the top) and the step from there:
    /// the coding path is made only when a container or an error asks for it.
    private let parent: PlistValueDecoder?
    @exclusivity(unchecked) private var storedStep: PathStep
    private var step: PathStep { unsafe storedStep }

    init(
        node: DecodingNode, context: DecodingContext, source: (any IndexedPlist)?, depth: Int,
        parent: PlistValueDecoder?, step: PathStep
    ) {
        unsafe storedNode = node
        self.context = context
        self.source = source
        self.depth = depth
        self.parent = parent
        unsafe storedStep = step
    }

    var options: Options { context.options }
    var path: CodingPathNode { parent.map { $0.path(step) } ?? .root }
    var codingPath: [any CodingKey] { path.array }
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    /// The path of the value `step` leads to from this one.
    func path(_ step: PathStep) -> CodingPathNode {
        switch step {
        case .same: path
        case .key(let key): .key(key, path)
        case .index(let index): .index(index, path)
        }
    }

    /// The decoder for a value inside this one.
    func child(_ node: DecodingNode, _ step: PathStep) -> PlistValueDecoder {
        PlistValueDecoder(node: node, context: context, source: source, depth: depth + 1, parent: self, step: step)
    }

    /// The decoder for a value inside this one: `spare` again when nothing holds it any more (the
    /// decoding of the previous element is over), else a new one, kept in `spare`. The loops over
    /// a collection's elements decode each with one decoder instead of allocating one each.
    func child(_ node: DecodingNode, _ step: PathStep, reusing spare: inout PlistValueDecoder?) -> PlistValueDecoder {
        if isKnownUniquelyReferenced(&spare), let reused = spare {
            unsafe reused.storedNode = node
            unsafe reused.storedStep = step
            return reused
        }
        let made = child(node, step)
        spare = made
        return made
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(KeyedDecoding<Key>(decoder: self, entries: try entries()))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        UnkeyedDecoding(decoder: self, elements: try elements())
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueDecoding(decoder: self)
    }

    /// The dictionary this value is, with its keys as the key strategy makes them.
    func entries() throws -> DecodingEntries {
        let entries: DecodingEntries
        switch node {
        case .value(.dictionary(let dictionary)) where dictionary.keyStorage.isASCII:
            entries = .tree(dictionary)
        case .value(.dictionary(let dictionary)):
            // Foundation's decoder keys its containers by `String`: canonically equivalent keys
            // are one key, with the first spelling and the last value.
            var merged = OrderedDictionary<String, DecodingNode>(minimumCapacity: dictionary.count)
            for (key, value) in dictionary { merged[key] = .value(value) }
            entries = .converted(merged)
        case .object(let ref) where source!.kind(of: ref) == .dictionary:
            let source = source!
            let depth = depth
            switch try readingDocument({ () throws(PlistError) in try source.dictionary(ref, depth: depth) }) {
            case .entries(let indexed):
                entries = .indexed(indexed)
            case .listed(let keys, let values):
                entries = .converted(OrderedDictionary(uncheckedUniqueKeys: keys, values: values.map { .object($0) }))
            }
        default:
            if isNil(node) { throw null([String: Any].self, node, .same, what: "keyed decoding container") }
            throw mismatch([String: Any].self, node, .same)
        }
        if case .useDefaultKeys = context.options.keys { return entries }
        var converted = OrderedDictionary<String, DecodingNode>(minimumCapacity: count(of: entries))
        for index in 0..<count(of: entries) {
            let made = options.codingKeyName(of: key(index, of: entries), at: codingPath)
            if converted[made] == nil { converted[made] = value(index, of: entries) }
        }
        return .converted(converted)
    }

    /// The array this value is.
    func elements() throws -> DecodingElements {
        switch node {
        case .value(.array(let elements)):
            return .tree(elements)
        case .object(let ref) where source!.kind(of: ref) == .array:
            let source = source!
            let depth = depth
            return .indexed(try readingDocument { () throws(PlistError) in try source.array(ref, depth: depth) })
        default:
            if isNil(node) { throw null([Any].self, node, .same, what: "unkeyed decoding container") }
            throw mismatch([Any].self, node, .same)
        }
    }

    /// The subtree at `node`, as it is in the document (a `Plist` field decodes to it).
    private func tree(_ node: DecodingNode) throws -> Plist {
        switch node {
        case .value(let tree): return tree
        case .object(let ref):
            let source = source!
            let depth = depth
            return try readingDocument { () throws(PlistError) in try Self.tree(ref, in: source, depth: depth) }
        }
    }

    private static func tree(_ ref: Int, in source: any IndexedPlist, depth: Int) throws(PlistError) -> Plist {
        switch source.kind(of: ref) {
        case .scalar:
            return try source.scalar(ref)!
        case .array:
            let elements = try source.array(ref, depth: depth)
            var result: [Plist] = []
            result.reserveCapacity(elements.count)
            for index in 0..<elements.count {
                result.append(try tree(source.element(index, of: elements), in: source, depth: depth + 1))
            }
            return .array(result)
        case .dictionary:
            var result = PlistDictionary()
            for (key, value) in try source.exactEntries(ref, depth: depth) {
                result[key] = try tree(value, in: source, depth: depth + 1)
            }
            return .dictionary(result)
        }
    }

    /// Runs `read` on the document, turning its errors into `DecodingError`s at this value.
    private func readingDocument<T>(_ read: () throws(PlistError) -> T) throws -> T {
        do {
            return try read()
        } catch {
            throw Self.unreadable(error, path: path)
        }
    }

    private static func unreadable(_ error: PlistError, path: CodingPathNode) -> DecodingError {
        DecodingError.dataCorrupted(
            .init(
                codingPath: path.array, debugDescription: "The data is not a valid property list: \(error)",
                underlyingError: error))
    }

    // MARK: Unboxing

    /// The scalar at `node`; a container of an indexed document is a type mismatch, and `$null`
    /// (which Foundation's decoder takes for `nil` wherever it is) a value not found.
    private func scalar(_ node: DecodingNode, as type: Any.Type, at step: @autoclosure () -> PathStep) throws
        -> Plist
    {
        let value: Plist
        switch node {
        case .value(let tree):
            value = tree
        case .object(let ref):
            let scalar: Plist?
            do {
                scalar = try source!.scalar(ref)
            } catch {
                throw Self.unreadable(error, path: path(step()))
            }
            guard let scalar else { throw mismatch(type, node, step()) }
            value = scalar
        }
        if case .string(let text) = value, text == "$null" { throw null(type, node, step()) }
        return value
    }

    /// The error for `$null` where a `type` was asked for, as Foundation's.
    private func null(_ type: Any.Type, _ node: DecodingNode, _ step: PathStep, what: String? = nil) -> DecodingError {
        DecodingError.valueNotFound(
            type,
            .init(
                codingPath: path(step).array,
                debugDescription:
                    "Cannot get \(what ?? "value of \(type)") -- found null value instead\(location(node))."))
    }

    func unbox<T: Decodable>(_ node: DecodingNode, as type: T.Type, at step: @autoclosure () -> PathStep) throws -> T {
        var spare: PlistValueDecoder? = nil
        return try unbox(node, as: type, at: step(), reusing: &spare)
    }

    /// `unbox`, decoding a value that decodes itself with `spare` when it can (`child(_:_:reusing:)`).
    func unbox<T: Decodable>(
        _ node: DecodingNode, as type: T.Type, at step: @autoclosure () -> PathStep,
        reusing spare: inout PlistValueDecoder?
    ) throws -> T {
        if T.self == Date.self { return try unboxDate(node, at: step()) as! T }
        if T.self == Plist.self { return try tree(node) as! T }
        if T.self == Data.self {
            guard case .data(let data) = try scalar(node, as: type, at: step()) else {
                throw mismatch(Data.self, node, step())
            }
            return data as! T
        }
        if T.self == URL.self, options.readsValuesFromStrings,
            case .string(let string) = try? scalar(node, as: type, at: step())
        {
            // Foundation writes a URL as `{relative, base}` (URL's own Codable); its absolute
            // string (what JSON coders write) is read too.
            guard let url = URL(string: string) else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: path(step()).array,
                        debugDescription: "Invalid URL string \(string.debugDescription)\(location(node))."))
            }
            return url as! T
        }
        if let collection = type as? any DecodedInPlace.Type {
            return try collection.init(decodingWith: child(node, step(), reusing: &spare)) as! T
        }
        // `type`, not `T`: a subclass passed as its superclass's type decodes as the subclass.
        return try type.init(from: child(node, step(), reusing: &spare))
    }

    func unboxString(_ node: DecodingNode, at step: @autoclosure () -> PathStep) throws -> String {
        if case .object(let ref) = node, let string = source!.string(ref) {
            if string.utf8.count == 5, string == "$null" { throw null(String.self, node, step()) }
            return string
        }
        guard case .string(let string) = try scalar(node, as: String.self, at: step()) else {
            throw mismatch(String.self, node, step())
        }
        return string
    }

    func unboxBool(_ node: DecodingNode, at step: @autoclosure () -> PathStep) throws -> Bool {
        if case .object(let ref) = node, let bool = source!.bool(ref) { return bool }
        switch try scalar(node, as: Bool.self, at: step()) {
        case .bool(let bool): return bool
        case .string(let text) where options.readsValuesFromStrings:
            switch text.lowercased() {
            case "yes", "true", "1": return true
            case "no", "false", "0": return false
            default: break
            }
        default: break
        }
        throw mismatch(Bool.self, node, step())
    }

    @inline(__always) func unboxInteger<I: FixedWidthInteger>(
        _ node: DecodingNode, as type: I.Type, at step: @autoclosure () -> PathStep
    ) throws -> I {
        if case .object(let ref) = node, let integer = source!.integer(ref), let fitted = Self.fit(integer, as: type) {
            return fitted
        }
        let value = try scalar(node, as: type, at: step())
        let fitted: I?
        switch value {
        case .integer(let integer):
            fitted = Self.fit(integer, as: type)
        case .real(let real):
            fitted = I(exactly: real)
        case .string(let text) where options.readsValuesFromStrings:
            guard let parsed = I(text) else { throw mismatch(type, node, step()) }
            fitted = parsed
        default:
            throw mismatch(type, node, step())
        }
        guard let fitted else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: path(step()).array,
                    debugDescription: "Parsed property list number <\(value)> does not fit in \(type)\(location(node))."
                ))
        }
        return fitted
    }

    @inline(__always) private static func fit<I: FixedWidthInteger>(_ integer: PlistInteger, as type: I.Type) -> I? {
        integer.int64.flatMap { I(exactly: $0) } ?? integer.uint64.flatMap { I(exactly: $0) }
    }

    func unboxDouble(_ node: DecodingNode, at step: @autoclosure () -> PathStep) throws -> Double {
        if case .object(let ref) = node, let real = source!.real(ref) { return real }
        switch try scalar(node, as: Double.self, at: step()) {
        case .real(let real): return real
        case .integer(let integer): return integer.int64.map(Double.init) ?? Double(integer.uint64!)
        case .string(let text) where options.readsValuesFromStrings:
            if let real = Double(text) { return real }
        default: break
        }
        throw mismatch(Double.self, node, step())
    }

    /// A `Float` as Foundation's decoder makes it: from an integer, the nearest; from a real in
    /// text (`roundsRealsToFloat`), the nearest too (`strtof` there: beyond the range, an
    /// infinity); from a binary real or a `Plist`, only a real that is exactly a `Float`.
    func unboxFloat(_ node: DecodingNode, at step: @autoclosure () -> PathStep) throws -> Float {
        let real: Double
        if case .object(let ref) = node, let value = source!.real(ref) {
            real = value
        } else {
            switch try scalar(node, as: Float.self, at: step()) {
            case .real(let value): real = value
            case .integer(let integer): return integer.int64.map(Float.init) ?? Float(integer.uint64!)
            case .string(let text) where options.readsValuesFromStrings:
                guard let value = Double(text) else { throw mismatch(Float.self, node, step()) }
                real = value
            default: throw mismatch(Float.self, node, step())
            }
        }
        if real.isNaN { return .nan }
        if options.roundsRealsToFloat { return Float(real) }
        guard let float = Float(exactly: real) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: path(step()).array,
                    debugDescription: "Property list number <\(real)> does not fit in Float\(location(node))."))
        }
        return float
    }

    func unboxDate(_ node: DecodingNode, at step: PathStep) throws -> Date {
        if case .object(let ref) = node, let seconds = source!.date(ref) {
            return Date(timeIntervalSinceReferenceDate: seconds)
        }
        let value = try scalar(node, as: Date.self, at: step)
        if case .date(let date) = value { return date }
        switch options.dates {
        case .deferredToDate:
            break
        case .iso8601:
            if case .string(let text) = value, let seconds = DateText.seconds(iso8601: text) {
                return Date(timeIntervalSinceReferenceDate: seconds)
            }
        case .secondsSince1970:
            if let seconds = try? unboxDouble(node, at: step) { return Date(timeIntervalSince1970: seconds) }
        case .secondsSinceReferenceDate:
            if let seconds = try? unboxDouble(node, at: step) {
                return Date(timeIntervalSinceReferenceDate: seconds)
            }
        case .custom(let decode):
            return try decode(child(node, step))
        }
        throw mismatch(Date.self, node, step)
    }

    func isNil(_ node: DecodingNode) -> Bool {
        switch node {
        case .value(.string(let text)): text == "$null"
        case .value: false
        case .object(let ref): source!.isNull(ref)
        }
    }

    /// Where `node` is in the input, for error messages: `, at byte N` for an object of a
    /// binary file; empty for a tree value, which keeps no positions.
    func location(_ node: DecodingNode) -> String {
        guard case .object(let ref) = node, let source = source else { return "" }
        return source.location(of: ref)
    }

    /// The error for a value of another type than the one asked for.
    func mismatch(_ type: Any.Type, _ node: DecodingNode, _ step: PathStep) -> DecodingError {
        let found: String
        switch node {
        case .value(let value):
            found = Self.describe(value)
        case .object(let ref):
            switch source!.kind(of: ref) {
            case .array: found = "an array"
            case .dictionary: found = "a dictionary"
            case .scalar: found = (try? source!.scalar(ref))?.map(Self.describe) ?? "an unreadable value"
            }
        }
        return DecodingError.typeMismatch(
            type,
            .init(
                codingPath: path(step).array,
                debugDescription: "Expected to decode \(type) but found \(found) instead\(location(node))."))
    }

    private static func describe(_ value: Plist) -> String {
        if case .string(let text) = value, text == "$null" { return "a null value" }
        let article = value.typeName == "integer" || value.typeName == "array" ? "an" : "a"
        return "\(article) \(value.typeName) (\(String(String(describing: value).prefix(60))))"
    }
}

/// The collections the decoder fills itself, with room for all their elements and each read
/// straight from its place: the standard library's `init(from:)` goes through a container for
/// each element (for a dictionary, looking its key up again) and grows the collection as it
/// goes (for a dictionary, rehashing and moving every value at each step, a visible part of
/// decoding a large dictionary of structs). Reading `[String: V]` and arrays this way avoids both.
protocol DecodedInPlace {
    /// The collection `decoder` holds, as `init(from:)` decodes it.
    init(decodingWith decoder: PlistValueDecoder) throws
}

extension Dictionary: DecodedInPlace where Key == String, Value: Decodable {
    /// The entries in order, their keys as the key strategy makes them (as through a keyed container).
    init(decodingWith decoder: PlistValueDecoder) throws {
        let entries = try decoder.entries()
        let count = decoder.count(of: entries)
        self.init(minimumCapacity: count)
        var spare: PlistValueDecoder? = nil
        for index in 0..<count {
            let key = decoder.key(index, of: entries)
            self[key] = try decoder.unbox(
                decoder.value(index, of: entries), as: Value.self, at: .key(PlistCodingKey(stringValue: key)),
                reusing: &spare)
        }
    }
}

extension Array: DecodedInPlace where Element: Decodable {
    init(decodingWith decoder: PlistValueDecoder) throws {
        let elements = try decoder.elements()
        let count = decoder.count(of: elements)
        self.init()
        reserveCapacity(count)
        var spare: PlistValueDecoder? = nil
        for index in 0..<count {
            append(
                try decoder.unbox(
                    decoder.element(index, of: elements), as: Element.self, at: .index(index), reusing: &spare))
        }
    }
}
