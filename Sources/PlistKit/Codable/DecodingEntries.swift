import OrderedCollections
import PlistCore

/// A dictionary as a keyed container sees it.
enum DecodingEntries {
    /// A dictionary of a `Plist` tree whose keys are all ASCII (so exact spelling and Swift's
    /// `String` equality agree).
    case tree(PlistDictionary)
    /// A dictionary of the decoder's indexed document.
    case indexed(IndexedEntries)
    /// A dictionary whose keys are matched as `String`s, as Foundation's `PropertyListDecoder`
    /// matches them (canonically equivalent spellings are one key): keys beyond ASCII (the first
    /// spelling with the last value), or keys the key strategy changed (the first of equal keys
    /// kept).
    case converted(OrderedDictionary<String, DecodingNode>)
}

/// An array as an unkeyed container sees it.
enum DecodingElements {
    case tree([Plist])
    case indexed(IndexedElements)
}

extension PlistValueDecoder {
    func count(of entries: DecodingEntries) -> Int {
        switch entries {
        case .tree(let dictionary): dictionary.count
        case .indexed(let indexed): indexed.count
        case .converted(let dictionary): dictionary.count
        }
    }

    func key(_ index: Int, of entries: DecodingEntries) -> String {
        switch entries {
        case .tree(let dictionary): dictionary.keys[index]
        case .indexed(let indexed): source!.key(index, of: indexed)
        case .converted(let dictionary): dictionary.keys[index]
        }
    }

    func value(_ index: Int, of entries: DecodingEntries) -> DecodingNode {
        switch entries {
        case .tree(let dictionary): .value(dictionary.values[index])
        case .indexed(let indexed): .object(source!.value(index, of: indexed))
        case .converted(let dictionary): dictionary.values[index]
        }
    }

    /// The value for `key` and the index of the entry after it, if there is one. The entry at
    /// `hint` is tried first: the compiler's `init(from:)` asks for keys in declaration order,
    /// and files written from the same type often hold them in that order.
    func lookup(_ key: String, in entries: DecodingEntries, hint: Int) -> (node: DecodingNode, next: Int)? {
        let index: Int?
        switch entries {
        case .tree(let dictionary):
            index = hint < dictionary.count && dictionary.keys[hint] == key ? hint : dictionary.index(forKey: key)
        case .indexed(let indexed):
            guard let (index, value) = source!.entry(forKey: key, in: indexed, hint: hint) else { return nil }
            return (.object(value), index + 1)
        case .converted(let dictionary):
            index = hint < dictionary.count && dictionary.keys[hint] == key ? hint : dictionary.index(forKey: key)
        }
        guard let index else { return nil }
        return (value(index, of: entries), index + 1)
    }

    func count(of elements: DecodingElements) -> Int {
        switch elements {
        case .tree(let array): array.count
        case .indexed(let indexed): indexed.count
        }
    }

    func element(_ index: Int, of elements: DecodingElements) -> DecodingNode {
        switch elements {
        case .tree(let array): .value(array[index])
        case .indexed(let indexed): .object(source!.element(index, of: indexed))
        }
    }
}
