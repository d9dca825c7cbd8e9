import OrderedCollections
import PlistCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A `Plist` tree seen as a numbered document, so that the decoder reads tree values (text
/// formats, `decode(_:from: Plist)`) through the same nodes as binary and XML documents.
///
/// Node 0 is the top; entering a container numbers its children, appended once per entry.
final class TreeDocument: IndexedPlist {
    /// The values numbered so far.
    private var nodes: [Plist]

    init(_ top: Plist) { nodes = [top] }

    var top: Int { 0 }

    func kind(of node: Int) -> IndexedKind {
        switch nodes[node] {
        case .array: .array
        case .dictionary: .dictionary
        default: .scalar
        }
    }

    func scalar(_ node: Int) -> Plist? { kind(of: node) == .scalar ? nodes[node] : nil }

    func integer(_ node: Int) -> PlistInteger? { nodes[node].integer }

    func real(_ node: Int) -> Double? { nodes[node].double }

    func string(_ node: Int) -> String? { nodes[node].string }

    func bool(_ node: Int) -> Bool? { nodes[node].bool }

    func date(_ node: Int) -> Double? { nodes[node].date?.timeIntervalSinceReferenceDate }

    func isNull(_ node: Int) -> Bool { nodes[node].string == "$null" }

    /// Keys all ASCII are matched in place; others as `String`s, as Foundation's decoder keys its
    /// containers (canonically equivalent keys are one key, with the first spelling and the last
    /// value).
    func dictionary(_ node: Int, depth: Int) -> IndexedDictionary {
        let dictionary = dictionary(node)
        let base = nodes.count
        guard dictionary.keyStorage.isASCII else {
            var merged = OrderedDictionary<String, Plist>(minimumCapacity: dictionary.count)
            for (key, value) in dictionary { merged[key] = value }
            nodes.append(contentsOf: merged.values)
            return .listed(keys: Array(merged.keys), values: Array(base..<nodes.count))
        }
        nodes.append(contentsOf: dictionary.values)
        return .entries(IndexedEntries(node: node, count: dictionary.count, base: base))
    }

    func exactEntries(_ node: Int, depth: Int) -> [(key: String, value: Int)] {
        let dictionary = dictionary(node)
        let base = nodes.count
        nodes.append(contentsOf: dictionary.values)
        return dictionary.keys.enumerated().map { (key: $1, value: base + $0) }
    }

    func array(_ node: Int, depth: Int) -> IndexedElements {
        guard case .array(let elements) = nodes[node] else { return IndexedElements(count: 0, base: 0) }
        let base = nodes.count
        nodes.append(contentsOf: elements)
        return IndexedElements(count: elements.count, base: base)
    }

    func element(_ index: Int, of elements: IndexedElements) -> Int { elements.base + index }

    func key(_ index: Int, of entries: IndexedEntries) -> String { dictionary(entries.node).keys[index] }

    func value(_ index: Int, of entries: IndexedEntries) -> Int { entries.base + index }

    func entry(forKey key: String, in entries: IndexedEntries, hint: Int) -> (index: Int, value: Int)? {
        let dictionary = dictionary(entries.node)
        let found = hint < dictionary.count && dictionary.keys[hint] == key ? hint : dictionary.index(forKey: key)
        return found.map { ($0, entries.base + $0) }
    }

    /// A tree keeps no positions.
    func location(of node: Int) -> String { "" }

    func plist(_ node: Int, depth: Int) -> Plist { nodes[node] }

    func heldValue(of node: Int) -> Plist? { nodes[node] }

    /// The dictionary at `node` (empty for another value: the decoder asks only for dictionaries).
    private func dictionary(_ node: Int) -> PlistDictionary {
        guard case .dictionary(let dictionary) = nodes[node] else { return PlistDictionary() }
        return dictionary
    }
}
