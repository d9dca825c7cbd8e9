#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes a `Plist` as `bplist00` bytes.
///
/// Every scalar (string, number, date, data, UID, Boolean) is stored once however often it
/// appears: scalars are encoded first and uniqued by their exact encoded bytes, so `-0.0` and
/// `0.0`, or two Unicode spellings of the same text, stay distinct. A container is stored once
/// per instance, as CoreFoundation does: copies of one array or dictionary (which share
/// storage, as the reader's shared references do) become one object, so a small file that
/// describes a huge tree through shared references is written back just as small. Integers,
/// lengths, object references and offsets use the fewest bytes that hold them.
enum BinaryWriter {
    static func write(_ value: Plist, options: PlistWriteOptions) throws(PlistError) -> [UInt8] {
        var objects = TreeObjects(table: ObjectTable(maxDepth: options.maxDepth))
        _ = try objects.add(value, depth: 0)
        return objects.table.serialize()
    }
}

/// Adds a `Plist` to an `ObjectTable`.
private struct TreeObjects {
    var table: ObjectTable
    /// Containers already added: their object number and how many levels of containers they hold.
    var containers = StorageTable<(object: Int, height: Int)>()
    /// Key storages already added (dictionaries read with the same keys share them): where the
    /// references to their key objects were set first.
    var keySets = StorageTable<Int>()

    /// Adds `value` and everything in it, found inside `depth` containers; returns its object
    /// number and its height (0 for scalars).
    mutating func add(_ value: Plist, depth: Int) throws(PlistError) -> (object: Int, height: Int) {
        switch value {
        case .array(let elements):
            let identity = StorageIdentity(elements)
            if let known = try known(identity, depth: depth) { return known }
            let (object, start) = try table.reserveContainer(
                .array, count: elements.count, slots: elements.count, depth: depth)
            var height = 1
            for (offset, element) in elements.enumerated() {
                let child = try add(element, depth: depth + 1)
                table.setReference(start + offset, to: child.object)
                height = max(height, child.height + 1)
            }
            if let identity { containers.insert((object, height), for: identity) }
            return (object, height)
        case .dictionary(let dictionary):
            let identity = StorageIdentity(dictionary)
            if let known = try known(identity, depth: depth) { return known }
            let count = dictionary.count
            let (object, start) = try table.reserveContainer(.dictionary, count: count, slots: 2 * count, depth: depth)
            setKeys(of: dictionary, at: start)
            var height = 1
            for (offset, element) in dictionary.valueStorage.enumerated() {
                let child = try add(element, depth: depth + 1)
                table.setReference(start + count + offset, to: child.object)
                height = max(height, child.height + 1)
            }
            if let identity { containers.insert((object, height), for: identity) }
            return (object, height)
        case .integer(let integer):
            return (table.addInteger(integer), 0)
        case .real(let real):
            return (table.addEightBytes(BinaryMarker.real64, real.bitPattern), 0)
        case .date(let date):
            return (table.addEightBytes(BinaryMarker.date, date.timeIntervalSinceReferenceDate.bitPattern), 0)
        case .data(let data) where data.count >= ObjectTable.largeDataSize:
            return (table.addLargeData(data), 0)
        default:
            return (table.addScalar { ScalarEncoding.scalar(value, into: &$0) }, 0)
        }
    }

    /// Sets the references to the keys of `dictionary` at `start`: the key objects of a key
    /// storage met before are reused, not encoded and looked up again.
    private mutating func setKeys(of dictionary: PlistDictionary, at start: Int) {
        let identity = StorageIdentity(keysOf: dictionary)
        if let first = keySets[identity] {
            table.copyReferences(dictionary.count, from: first, to: start)
            return
        }
        for (offset, key) in dictionary.keyStorage.keys.enumerated() {
            table.setReference(start + offset, to: table.addScalar { ScalarEncoding.string(key, into: &$0) })
        }
        keySets.insert(start, for: identity)
    }

    /// The container with `identity` if it was added already, after checking that it is not
    /// too deep where it appears now.
    private func known(_ identity: StorageIdentity?, depth: Int) throws(PlistError) -> (object: Int, height: Int)? {
        guard let identity, let known = containers[identity] else { return nil }
        guard depth + known.height <= table.maxDepth else { throw PlistError(.tooDeep(limit: table.maxDepth), at: 0) }
        return known
    }
}
