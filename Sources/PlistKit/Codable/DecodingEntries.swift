import OrderedCollections
import PlistCore

/// A dictionary as a keyed container sees it.
enum DecodingEntries {
    /// A dictionary of the decoder's document, read in place.
    case document(IndexedEntries)
    /// A dictionary whose keys are matched as `String`s, as Foundation's `PropertyListDecoder`
    /// matches them (canonically equivalent spellings are one key): keys the document lists
    /// merged (the first spelling with the last value), or keys the key strategy changed (the
    /// first of equal keys kept).
    case converted(OrderedDictionary<String, Int>)
}

extension PlistValueDecoder {
    func count(of entries: DecodingEntries) -> Int {
        switch entries {
        case .document(let indexed): indexed.count
        case .converted(let dictionary): dictionary.count
        }
    }

    func key(_ index: Int, of entries: DecodingEntries) -> String {
        switch entries {
        case .document(let indexed): document.key(index, of: indexed)
        case .converted(let dictionary): dictionary.keys[index]
        }
    }

    func value(_ index: Int, of entries: DecodingEntries) -> Int {
        switch entries {
        case .document(let indexed): document.value(index, of: indexed)
        case .converted(let dictionary): dictionary.values[index]
        }
    }

    /// The value for `key` and the index of the entry after it, if there is one. The entry at
    /// `hint` is tried first: the compiler's `init(from:)` asks for keys in declaration order,
    /// and files written from the same type often hold them in that order.
    func lookup(_ key: String, in entries: DecodingEntries, hint: Int) -> (node: Int, next: Int)? {
        switch entries {
        case .document(let indexed):
            guard let (index, value) = document.entry(forKey: key, in: indexed, hint: hint) else { return nil }
            return (value, index + 1)
        case .converted(let dictionary):
            let found = hint < dictionary.count && dictionary.keys[hint] == key ? hint : dictionary.index(forKey: key)
            guard let index = found else { return nil }
            return (dictionary.values[index], index + 1)
        }
    }

    func element(_ index: Int, of elements: IndexedElements) -> Int { document.element(index, of: elements) }
}
