extension Plist {
    /// The keys and indexes down to the first value (depth first, entries in their order) for which `matches` is true, or `nil` if there is none. The writers use it
    /// only once they have failed, to name the key path of the value they could not write.
    package func firstPath(where matches: (Plist) -> Bool) -> [String]? {
        // Depth first with a stack of its own: values nest as deep as `maxDepth` allows.
        var stack: [(value: Plist, path: [String])] = [(self, [])]
        while let (value, path) = stack.popLast() {
            if matches(value) { return path }
            switch value {
            case .array(let elements):
                for index in elements.indices.reversed() { stack.append((elements[index], path + [String(index)])) }
            case .dictionary(let entries):
                for (key, element) in entries.reversed() { stack.append((element, path + [key])) }
            default: break
            }
        }
        return nil
    }
}
