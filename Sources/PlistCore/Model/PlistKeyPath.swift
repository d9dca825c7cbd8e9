/// A path to a value inside nested dictionaries and arrays, written as plutil writes it: keys
/// separated by dots, `\.` for a dot inside a key, and in an array a component is an index from 0
/// (`CFBundleURLTypes.0.CFBundleURLSchemes`). The empty path is the top-level value.
public struct PlistKeyPath: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The keys and indexes, outermost first, without escapes.
    public var components: [String]

    /// The path made of `components` (keys and indexes, outermost first).
    public init(components: [String]) {
        self.components = components
    }

    /// The path written as `text`: dot-separated components, `\.` a dot inside a component.
    /// Text is read scalar by scalar and never normalized, so a component names a key by its
    /// exact spelling (a dot followed by a combining mark still separates components).
    public init(parsing text: String) {
        guard !text.isEmpty else {
            components = []
            return
        }
        var components: [String] = []
        var current = String.UnicodeScalarView()
        var escaped = false
        for scalar in text.unicodeScalars {
            if escaped {
                if scalar != "." { current.append("\\") }
                current.append(scalar)
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else if scalar == "." {
                components.append(String(current))
                current = String.UnicodeScalarView()
            } else {
                current.append(scalar)
            }
        }
        if escaped { current.append("\\") }
        components.append(String(current))
        self.components = components
    }

    /// The path written as `text` (see `init(parsing:)`).
    public init(stringLiteral text: String) {
        self.init(parsing: text)
    }

    /// The path as it is written: components joined by dots, dots inside them escaped.
    public var description: String {
        components.map { component in
            var escaped = String.UnicodeScalarView()
            for scalar in component.unicodeScalars {
                if scalar == "." { escaped.append("\\") }
                escaped.append(scalar)
            }
            return String(escaped)
        }.joined(separator: ".")
    }

    /// Whether both paths have the same components, spelled exactly the same (as dictionary
    /// keys are compared).
    public static func == (lhs: PlistKeyPath, rhs: PlistKeyPath) -> Bool {
        lhs.components.count == rhs.components.count
            && zip(lhs.components, rhs.components).allSatisfy { ExactKey($0) == ExactKey($1) }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(components.count)
        for component in components { hasher.combine(ExactKey(component)) }
    }

    /// The path to the value that holds this one (the top level's parent is itself).
    var parent: PlistKeyPath { PlistKeyPath(components: components.dropLast()) }

    /// The first `count` components.
    func prefix(_ count: Int) -> PlistKeyPath { PlistKeyPath(components: Array(components.prefix(count))) }
}

extension Plist {
    /// The value at `path`.
    /// - Throws: `PlistError` with `.noValueAtKeyPath` naming the part of the path that is missing.
    public func value(at path: PlistKeyPath) throws(PlistError) -> Plist {
        var value = self
        for depth in path.components.indices {
            value = try value.child(path, depth: depth)
        }
        return value
    }

    /// Adds `value` at `path`: a new key in a dictionary, or an element inserted before the
    /// index in an array (the array's count appends).
    /// - Throws: `PlistError`: `.valueExistsAtKeyPath` when the dictionary has the key already,
    ///   `.noValueAtKeyPath` when the container is missing or the index is out of range.
    public mutating func insert(_ value: Plist, at path: PlistKeyPath) throws(PlistError) {
        try editParent(of: path) { (container: inout Plist, key: String) throws(PlistError) in
            switch container {
            case .dictionary(var entries):
                guard entries[key] == nil else { throw PlistError(.valueExistsAtKeyPath(path.description), at: 0) }
                container = .string("")
                entries[key] = value
                container = .dictionary(entries)
            case .array(var elements):
                guard let index = Int(key), (0...elements.count).contains(index) else {
                    throw PlistError(.noValueAtKeyPath(path.description), at: 0)
                }
                container = .string("")
                elements.insert(value, at: index)
                container = .array(elements)
            default:
                throw PlistError(.notAContainer(keyPath: path.parent.description, type: container.typeName), at: 0)
            }
        }
    }

    /// Appends `value` to the array at `path`.
    /// - Throws: `PlistError`: `.noValueAtKeyPath`, or `.unexpectedType` when the value there is
    ///   not an array.
    public mutating func append(_ value: Plist, toArrayAt path: PlistKeyPath) throws(PlistError) {
        try edit(at: path, depth: 0) { (target: inout Plist) throws(PlistError) in
            guard case .array(var elements) = target else {
                throw PlistError(
                    .unexpectedType(keyPath: path.description, expected: "array", found: target.typeName), at: 0)
            }
            target = .string("")
            elements.append(value)
            target = .array(elements)
        }
    }

    /// Sets the value at `path`: a dictionary's key is added or overwritten (keeping its
    /// position); an array's element is overwritten.
    /// - Throws: `PlistError` with `.noValueAtKeyPath` when the container is missing or the index
    ///   is out of range.
    public mutating func replace(_ value: Plist, at path: PlistKeyPath) throws(PlistError) {
        guard !path.components.isEmpty else {
            self = value
            return
        }
        try editParent(of: path) { (container: inout Plist, key: String) throws(PlistError) in
            switch container {
            case .dictionary(var entries):
                container = .string("")
                entries[key] = value
                container = .dictionary(entries)
            case .array(var elements):
                guard let index = Int(key), elements.indices.contains(index) else {
                    throw PlistError(.noValueAtKeyPath(path.description), at: 0)
                }
                container = .string("")
                elements[index] = value
                container = .array(elements)
            default:
                throw PlistError(.notAContainer(keyPath: path.parent.description, type: container.typeName), at: 0)
            }
        }
    }

    /// Removes the value at `path` from its dictionary or array.
    /// - Throws: `PlistError` with `.noValueAtKeyPath` when there is no value there.
    public mutating func remove(at path: PlistKeyPath) throws(PlistError) {
        try editParent(of: path) { (container: inout Plist, key: String) throws(PlistError) in
            switch container {
            case .dictionary(var entries):
                guard entries[key] != nil else { throw PlistError(.noValueAtKeyPath(path.description), at: 0) }
                container = .string("")
                entries.removeValue(forKey: key)
                container = .dictionary(entries)
            case .array(var elements):
                guard let index = Int(key), elements.indices.contains(index) else {
                    throw PlistError(.noValueAtKeyPath(path.description), at: 0)
                }
                container = .string("")
                elements.remove(at: index)
                container = .array(elements)
            default:
                throw PlistError(.notAContainer(keyPath: path.parent.description, type: container.typeName), at: 0)
            }
        }
    }

    /// The child named by `path.components[depth]`.
    private func child(_ path: PlistKeyPath, depth: Int) throws(PlistError) -> Plist {
        let key = path.components[depth]
        switch self {
        case .dictionary(let entries):
            if let value = entries[key] { return value }
        case .array(let elements):
            if let index = Int(key), elements.indices.contains(index) { return elements[index] }
        default:
            throw PlistError(.notAContainer(keyPath: path.prefix(depth).description, type: typeName), at: 0)
        }
        throw PlistError(.noValueAtKeyPath(path.prefix(depth + 1).description), at: 0)
    }

    /// Runs `body` on the value at `path` (from component `depth` on), in place.
    private mutating func edit(
        at path: PlistKeyPath, depth: Int, _ body: (inout Plist) throws(PlistError) -> Void
    ) throws(PlistError) {
        guard depth < path.components.count else { return try body(&self) }
        let key = path.components[depth]
        switch self {
        case .dictionary(var entries):
            guard var value = entries[key] else {
                throw PlistError(.noValueAtKeyPath(path.prefix(depth + 1).description), at: 0)
            }
            self = .string("")
            entries[key] = .string("")
            defer { self = .dictionary(entries) }
            defer { entries[key] = value }
            try value.edit(at: path, depth: depth + 1, body)
        case .array(var elements):
            guard let index = Int(key), elements.indices.contains(index) else {
                throw PlistError(.noValueAtKeyPath(path.prefix(depth + 1).description), at: 0)
            }
            self = .string("")
            defer { self = .array(elements) }
            try elements[index].edit(at: path, depth: depth + 1, body)
        default:
            throw PlistError(.notAContainer(keyPath: path.prefix(depth).description, type: typeName), at: 0)
        }
    }

    /// Runs `body` on the container that holds the value at `path`, with the last component.
    private mutating func editParent(
        of path: PlistKeyPath, _ body: (inout Plist, String) throws(PlistError) -> Void
    ) throws(PlistError) {
        guard let key = path.components.last else {
            throw PlistError(.noValueAtKeyPath(path.description), at: 0)
        }
        try edit(at: path.parent, depth: 0) { (container: inout Plist) throws(PlistError) in
            try body(&container, key)
        }
    }
}
