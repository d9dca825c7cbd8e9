public import PlistCore

/// Checks a `BinaryPlistFile` against the whole-file reader's value: the same value, type,
/// keys and count at the top and at every path into it (up to `limit` paths), by plutil key
/// path and by typed path.
public enum LazyAgreement {
    /// The paths into `value`, outermost first, breadth first: at most `limit` of them.
    public static func paths(in value: Plist, limit: Int) -> [[PlistPathStep]] {
        var paths: [[PlistPathStep]] = [[]]
        var queue: [(path: [PlistPathStep], value: Plist)] = [([], value)]
        var next = 0
        while next < queue.count, paths.count < limit {
            let (path, value) = queue[next]
            next += 1
            switch value {
            case .array(let elements):
                for (index, element) in elements.enumerated() where paths.count < limit {
                    paths.append(path + [.index(index)])
                    queue.append((path + [.index(index)], element))
                }
            case .dictionary(let entries):
                for (key, element) in entries where paths.count < limit {
                    paths.append(path + [.key(key)])
                    queue.append((path + [.key(key)], element))
                }
            default: break
            }
        }
        return paths
    }

    /// The plutil key path of the typed `steps` (indexes as numbers, no escaping needed).
    public static func keyPath(_ steps: [PlistPathStep]) -> PlistKeyPath {
        PlistKeyPath(
            components: steps.map { step in
                switch step {
                case .key(let key): key
                case .index(let index): String(index)
                }
            })
    }

    /// What differs between `file` and `whole` (the whole-file reader's value), one line each.
    public static func mismatches(_ file: BinaryPlistFile, _ whole: Plist, limit: Int = 400) -> [String] {
        var found: [String] = []
        for steps in paths(in: whole, limit: limit) {
            let keyPath = keyPath(steps)
            // The tree's value at the path; a plutil path may name another value than the typed
            // one (a key that reads as an index), so each is compared with the tree's own answer.
            guard let expected = try? whole.value(at: keyPath) else {
                found.append("\(keyPath): the tree has no value")
                continue
            }
            do {
                let typed = try file.value(at: steps)
                let text = try file.value(at: keyPath)
                if !typed.isIdentical(to: expected) { found.append("\(keyPath): typed path gives \(typed)") }
                if !text.isIdentical(to: expected) { found.append("\(keyPath): key path gives \(text)") }
                if try file.type(at: keyPath) != expected.type { found.append("\(keyPath): type name") }
                switch expected {
                case .dictionary(let entries):
                    if try file.keys(at: steps) != Array(entries.keys) { found.append("\(keyPath): keys") }
                    if try file.count(at: keyPath) != entries.count { found.append("\(keyPath): count") }
                case .array(let elements):
                    if try file.count(at: steps) != elements.count { found.append("\(keyPath): count") }
                default: break
                }
            } catch {
                found.append("\(keyPath): \(error)")
            }
        }
        return found
    }
}
