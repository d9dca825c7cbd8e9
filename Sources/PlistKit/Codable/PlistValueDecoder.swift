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

/// The `Decoder` for one value: a node of a document (a binary file's object, an XML document's
/// node, a `Plist` tree's value through `TreeDocument`). A node's value is read straight from the
/// document when it has the type asked for, and otherwise read as a `Plist` and converted.
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

    /// The value's node in `document`. Unchecked, as `step`: both change only in
    /// `child(_:_:reusing:)`, on a decoder nothing else holds, so no access overlaps another, and
    /// a checked access cost more than the allocation that reusing the decoder saves.
    @exclusivity(unchecked) private var storedNode: Int
    var node: Int { unsafe storedNode }
    let context: DecodingContext
    /// The document the nodes are in (a `let` here, so that calls need no retain). A class-bound
    /// existential, as it was before there was one kind of node: a generic decoder would not be
    /// faster, since the `Decoder` witnesses of a generic class run unspecialized, calling the
    /// document through its witness table all the same.
    let document: any IndexedPlist
    /// How many containers this value is inside.
    let depth: Int
    /// The decoder of the value this one is inside (`nil` at the top) and the step from there:
    /// the coding path is made only when a container or an error asks for it.
    private let parent: PlistValueDecoder?
    @exclusivity(unchecked) private var storedStep: PathStep
    private var step: PathStep { unsafe storedStep }

    init(
        node: Int, context: DecodingContext, document: any IndexedPlist, depth: Int,
        parent: PlistValueDecoder?, step: PathStep
    ) {
        unsafe storedNode = node
        self.context = context
        self.document = document
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
    func child(_ node: Int, _ step: PathStep) -> PlistValueDecoder {
        PlistValueDecoder(node: node, context: context, document: document, depth: depth + 1, parent: self, step: step)
    }

    /// The decoder for a value that is not there (`superDecoder` for a missing key): the string
    /// `$null`, which decodes as `nil`, as Foundation's.
    func absent(_ step: PathStep) -> PlistValueDecoder {
        PlistValueDecoder(
            node: 0, context: context, document: TreeDocument(.string("$null")), depth: depth + 1, parent: self,
            step: step)
    }

    /// The decoder for a value inside this one: `spare` again when nothing holds it any more (the
    /// decoding of the previous element is over), else a new one, kept in `spare`. The loops over
    /// a collection's elements decode each with one decoder instead of allocating one each.
    func child(_ node: Int, _ step: PathStep, reusing spare: inout PlistValueDecoder?) -> PlistValueDecoder {
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
        guard document.kind(of: node) == .dictionary else {
            if isNil(node) { throw null([String: Any].self, node, .same, what: "keyed decoding container") }
            throw mismatch([String: Any].self, node, .same)
        }
        let (document, node, depth) = (document, node, depth)
        let entries: DecodingEntries
        switch try readingDocument({ () throws(PlistError) in try document.dictionary(node, depth: depth) }) {
        case .entries(let indexed):
            entries = .document(indexed)
        case .listed(let keys, let values):
            entries = .converted(OrderedDictionary(uncheckedUniqueKeys: keys, values: values))
        }
        if case .useDefaultKeys = context.options.keys { return entries }
        var converted = OrderedDictionary<String, Int>(minimumCapacity: count(of: entries))
        for index in 0..<count(of: entries) {
            let made = options.codingKeyName(of: key(index, of: entries), at: codingPath)
            if converted[made] == nil { converted[made] = value(index, of: entries) }
        }
        return .converted(converted)
    }

    /// The array this value is.
    func elements() throws -> IndexedElements {
        guard document.kind(of: node) == .array else {
            if isNil(node) { throw null([Any].self, node, .same, what: "unkeyed decoding container") }
            throw mismatch([Any].self, node, .same)
        }
        let (document, node, depth) = (document, node, depth)
        return try readingDocument { () throws(PlistError) in try document.array(node, depth: depth) }
    }

    /// The subtree at `node`, as it is in the document (a `Plist` field decodes to it).
    private func tree(_ node: Int) throws -> Plist {
        let (document, depth) = (document, depth)
        return try readingDocument { () throws(PlistError) in try document.plist(node, depth: depth) }
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
    private func scalar(_ node: Int, as type: Any.Type, at step: @autoclosure () -> PathStep) throws -> Plist {
        let scalar: Plist?
        do {
            scalar = try document.scalar(node)
        } catch {
            throw Self.unreadable(error, path: path(step()))
        }
        guard let scalar else { throw mismatch(type, node, step()) }
        if case .string(let text) = scalar, text == "$null" { throw null(type, node, step()) }
        return scalar
    }

    /// The error for `$null` where a `type` was asked for, as Foundation's.
    private func null(_ type: Any.Type, _ node: Int, _ step: PathStep, what: String? = nil) -> DecodingError {
        DecodingError.valueNotFound(
            type,
            .init(
                codingPath: path(step).array,
                debugDescription:
                    "Cannot get \(what ?? "value of \(type)") -- found null value instead\(location(node))."))
    }

    func unbox<T: Decodable>(_ node: Int, as type: T.Type, at step: @autoclosure () -> PathStep) throws -> T {
        var spare: PlistValueDecoder? = nil
        return try unbox(node, as: type, at: step(), reusing: &spare)
    }

    /// `unbox`, decoding a value that decodes itself with `spare` when it can (`child(_:_:reusing:)`).
    func unbox<T: Decodable>(
        _ node: Int, as type: T.Type, at step: @autoclosure () -> PathStep,
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

    func unboxString(_ node: Int, at step: @autoclosure () -> PathStep) throws -> String {
        if let string = document.string(node) {
            if string.utf8.count == 5, string == "$null" { throw null(String.self, node, step()) }
            return string
        }
        guard case .string(let string) = try scalar(node, as: String.self, at: step()) else {
            throw mismatch(String.self, node, step())
        }
        return string
    }

    func unboxBool(_ node: Int, at step: @autoclosure () -> PathStep) throws -> Bool {
        if let bool = document.bool(node) { return bool }
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
        _ node: Int, as type: I.Type, at step: @autoclosure () -> PathStep
    ) throws -> I {
        if let integer = document.integer(node), let fitted = Self.fit(integer, as: type) {
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

    /// The `F` nearest to `integer`.
    private static func nearest<F: BinaryFloatingPoint>(_ integer: PlistInteger, as type: F.Type) -> F {
        integer.isNegativeValue ? F(Int64(bitPattern: integer.bitPattern)) : F(integer.bitPattern)
    }

    func unboxDouble(_ node: Int, at step: @autoclosure () -> PathStep) throws -> Double {
        if let real = document.real(node) { return real }
        switch try scalar(node, as: Double.self, at: step()) {
        case .real(let real): return real
        case .integer(let integer): return Self.nearest(integer, as: Double.self)
        case .string(let text) where options.readsValuesFromStrings:
            if let real = Double(text) { return real }
        default: break
        }
        throw mismatch(Double.self, node, step())
    }

    /// A `Float` as Foundation's decoder makes it: from an integer, the nearest; from a real in
    /// text (`roundsRealsToFloat`), the nearest too (`strtof` there: beyond the range, an
    /// infinity); from a binary real or a `Plist`, only a real that is exactly a `Float`.
    func unboxFloat(_ node: Int, at step: @autoclosure () -> PathStep) throws -> Float {
        let real: Double
        if let value = document.real(node) {
            real = value
        } else {
            switch try scalar(node, as: Float.self, at: step()) {
            case .real(let value): real = value
            case .integer(let integer): return Self.nearest(integer, as: Float.self)
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

    func unboxDate(_ node: Int, at step: PathStep) throws -> Date {
        if let seconds = document.date(node) {
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

    func isNil(_ node: Int) -> Bool { document.isNull(node) }

    /// Where `node` is in the input, for error messages: `, at byte N` for an object of a
    /// binary file; empty for a tree value, which keeps no positions.
    func location(_ node: Int) -> String { document.location(of: node) }

    /// The error for a value of another type than the one asked for.
    func mismatch(_ type: Any.Type, _ node: Int, _ step: PathStep) -> DecodingError {
        let found: String
        if let value = document.heldValue(of: node) {
            found = Self.describe(value)
        } else {
            switch document.kind(of: node) {
            case .array: found = "an array"
            case .dictionary: found = "a dictionary"
            case .scalar: found = (try? document.scalar(node))?.map(Self.describe) ?? "an unreadable value"
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
        let count = elements.count
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
