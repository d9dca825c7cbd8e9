import PlistCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reading keyed archives without knowing their classes.
public enum KeyedArchive {
    /// The archive's `$top` dictionary with every object reference replaced by the object, for
    /// reading any keyed archive (`plistconv archive-print`).
    ///
    /// - `$null` (reference 0) becomes the string `"$null"`.
    /// - `NSString`, `NSDate` and `NSData` objects become a string, a date and data; plain
    ///   strings, numbers and data stay as they are.
    /// - Any other object becomes a dictionary that starts with `"$class"` (its `$classname`), then
    ///   `"$id": "#n"` when the archive refers to it (object n of `$objects`) more than once, then
    ///   its fields with references resolved. An `NSDictionary` or `NSMutableDictionary` whose keys
    ///   are strings not starting with `$` lists its entries instead of `NS.keys` and `NS.objects`.
    /// - Such an object appears in full once, where it is first reached depth first; every other
    ///   reference to it (a repeated reference or a cycle) becomes `{"$ref": "#n"}`.
    /// - Throws: `KeyedArchiveError`: `.notAnArchive`, `.wrongArchiver`, `.wrongVersion`,
    ///   `.missingTop`, `.referenceOutOfRange`, `.missingClass`, `.tooDeep`.
    public static func resolve(_ plist: Plist, maxDepth: Int = 512) throws(KeyedArchiveError) -> Plist {
        let archive = try ArchiveContents(plist)
        var resolver = Resolver(objects: archive.objects, maxDepth: maxDepth)
        resolver.countReferences(in: .dictionary(archive.top))
        for object in archive.objects { resolver.countReferences(in: object) }
        var top: PlistDictionary = [:]
        for (key, value) in archive.top {
            do throws(KeyedArchiveError) {
                top[key] = try resolver.field(value)
            } catch {
                throw KeyedArchiveError(error.kind, object: error.object, key: error.key ?? key)
            }
        }
        return .dictionary(top)
    }
}

private struct Resolver {
    let objects: [Plist]
    let maxDepth: Int
    var referenceCounts: [Int]
    var shown: Set<UInt64> = []
    var depth = 0

    init(objects: [Plist], maxDepth: Int) {
        self.objects = objects
        self.maxDepth = maxDepth
        referenceCounts = Array(repeating: 0, count: objects.count)
    }

    mutating func countReferences(in value: Plist) {
        switch value {
        case .uid(let uid) where uid < UInt64(objects.count): referenceCounts[Int(uid)] += 1
        case .array(let elements): for element in elements { countReferences(in: element) }
        case .dictionary(let entries): for element in entries.values { countReferences(in: element) }
        default: break
        }
    }

    /// A field value with its references resolved.
    mutating func field(_ value: Plist) throws(KeyedArchiveError) -> Plist {
        switch value {
        case .uid(let uid): return try object(uid)
        case .array(let elements):
            var resolved: [Plist] = []
            resolved.reserveCapacity(elements.count)
            for element in elements { resolved.append(try field(element)) }
            return .array(resolved)
        case .dictionary(let entries): return .dictionary(try fields(entries))
        default: return value
        }
    }

    private mutating func fields(_ entries: PlistDictionary) throws(KeyedArchiveError)
        -> PlistDictionary
    {
        guard depth < maxDepth else { throw KeyedArchiveError(.tooDeep(limit: maxDepth)) }
        depth += 1
        defer { depth -= 1 }
        var resolved: PlistDictionary = [:]
        resolved.reserveCapacity(entries.count)
        for (key, value) in entries where key != "$class" {
            do throws(KeyedArchiveError) {
                resolved[key] = try field(value)
            } catch  where error.key == nil {
                throw KeyedArchiveError(error.kind, object: error.object, key: key)
            }
        }
        return resolved
    }

    private mutating func object(_ uid: UInt64) throws(KeyedArchiveError) -> Plist {
        guard uid < UInt64(objects.count) else {
            throw KeyedArchiveError(.referenceOutOfRange(uid, objectCount: objects.count))
        }
        if uid == 0 { return "$null" }
        guard case .dictionary(let entries) = objects[Int(uid)] else { return objects[Int(uid)] }
        do throws(KeyedArchiveError) {
            guard entries["$class"] != nil else { return .dictionary(try fields(entries)) }
            let name = try className(entries)
            if let leaf = Self.leaf(name, entries) { return leaf }
            if shown.contains(uid) { return ["$ref": .string("#\(uid)")] }
            shown.insert(uid)
            var resolved: PlistDictionary = ["$class": .string(name)]
            if referenceCounts[Int(uid)] > 1 { resolved["$id"] = .string("#\(uid)") }
            let body: PlistDictionary
            if let entries = try dictionaryEntries(name, entries) { body = entries } else { body = try fields(entries) }
            resolved.merge(body) { first, _ in first }
            return .dictionary(resolved)
        } catch  where error.object == nil {
            throw KeyedArchiveError(error.kind, object: uid, key: error.key)
        }
    }

    private func className(_ entries: PlistDictionary) throws(KeyedArchiveError) -> String {
        guard case .uid(let classUID)? = entries["$class"], classUID < UInt64(objects.count),
            case .dictionary(let info) = objects[Int(classUID)], let name = info["$classname"]?.string
        else { throw KeyedArchiveError(.missingClass) }
        return name
    }

    /// The plain value of an `NSString`, `NSDate` or `NSData` object whose field is plain.
    private static func leaf(_ name: String, _ entries: PlistDictionary) -> Plist? {
        switch name {
        case "NSString", "NSMutableString": entries["NS.string"]?.string.map(Plist.string)
        case "NSDate":
            (entries["NS.time"]?.double ?? entries["NS.time"]?.int64.map(Double.init))
                .map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case "NSData", "NSMutableData": entries["NS.data"]?.data.map(Plist.data)
        default: nil
        }
    }

    /// The entries of an `NSDictionary` whose keys resolve to distinct strings not starting with `$`.
    private mutating func dictionaryEntries(_ name: String, _ entries: PlistDictionary)
        throws(KeyedArchiveError) -> PlistDictionary?
    {
        guard name == "NSDictionary" || name == "NSMutableDictionary",
            case .array(let keys)? = entries["NS.keys"], case .array(let values)? = entries["NS.objects"],
            keys.count == values.count
        else { return nil }
        var names: [String] = []
        var seen: Set<ExactKey> = []
        for key in keys {
            guard case .string(let string) = try field(key), !string.hasPrefix("$"),
                seen.insert(ExactKey(string)).inserted
            else {
                return nil
            }
            names.append(string)
        }
        guard depth < maxDepth else { throw KeyedArchiveError(.tooDeep(limit: maxDepth)) }
        depth += 1
        defer { depth -= 1 }
        var resolved: PlistDictionary = [:]
        for (key, value) in zip(names, values) { resolved[key] = try field(value) }
        return resolved
    }
}
