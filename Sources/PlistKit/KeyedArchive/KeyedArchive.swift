#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `NSKeyedArchiver` archives read without knowing their classes: the forensic view.
public enum KeyedArchive {
    /// The archive's root objects (`$top`) with every object reference resolved into a readable
    /// tree.
    ///
    /// - Foundation's value classes become plain values: `NSString` a string, `NSNumber` its
    ///   number, `NSDate` a date, `NSData` data, `NSArray`/`NSSet`/`NSOrderedSet` (mutable or not)
    ///   an array, `NSDictionary` a dictionary (keys that are not strings are written as their
    ///   description), `NSUUID` its string, `NSURL` its absolute string, `$null` the string `$null`.
    /// - Any other object becomes a dictionary whose first entry `$class` names its class, then
    ///   its fields, resolved.
    /// - An object referenced from more than one place is written in full once, as
    ///   `{"$id": index, "$value": ...}` (its index in `$objects`), and as `{"$ref": index}`
    ///   everywhere after; a reference back to an object being written (a cycle) is a `$ref` too.
    ///   Shared plain values (strings, numbers) are repeated, within `options`' limits.
    /// - Throws: `PlistError` with `.invalidArchive` saying what is wrong: not an archive, another
    ///   archiver, no `$top`, a reference outside `$objects`, an object without a class.
    public static func resolve(_ archive: Plist, options: PlistReadOptions = .init()) throws(PlistError) -> Plist {
        var resolver = try Resolver(archive, options: options)
        guard case .dictionary(let top)? = archive["$top"] else { throw invalid("it has no $top dictionary") }
        var result = OrderedDictionary<String, Plist>()
        for (key, value) in top { result[key] = try resolver.resolve(value, depth: 0) }
        return .dictionary(result)
    }

    static func invalid(_ reason: String) -> PlistError {
        PlistError(.invalidArchive(reason), at: 0)
    }
}

private struct Resolver {
    let objects: [Plist]
    /// How many references point at each object.
    var referenceCounts: [Int]
    /// Objects already written (their later references become `$ref`).
    var written: Set<Int> = []
    let maxContentBytes: Int
    let maxObjects: Int
    var contentBytes = 0
    var nodes = 0

    init(_ archive: Plist, options: PlistReadOptions) throws(PlistError) {
        maxContentBytes = options.maxContentBytes
        maxObjects = options.maxObjects
        guard case .dictionary = archive else { throw KeyedArchive.invalid("it is not a dictionary") }
        guard let archiver = archive["$archiver"]?.string else { throw KeyedArchive.invalid("it has no $archiver") }
        guard archiver == "NSKeyedArchiver" else {
            throw KeyedArchive.invalid("$archiver is \(archiver.debugDescription), not \"NSKeyedArchiver\"")
        }
        guard case .array(let objects)? = archive["$objects"] else {
            throw KeyedArchive.invalid("it has no $objects array")
        }
        self.objects = objects
        referenceCounts = Array(repeating: 0, count: objects.count)
        try count(archive["$top"] ?? .array([]))
        for object in objects { try count(object) }
    }

    private mutating func count(_ value: Plist) throws(PlistError) {
        switch value {
        case .uid(let uid):
            guard uid < objects.count else {
                throw KeyedArchive.invalid("a reference to object \(uid), but $objects has \(objects.count)")
            }
            referenceCounts[Int(uid)] += 1
        case .array(let elements): for element in elements { try count(element) }
        case .dictionary(let entries): for value in entries.values { try count(value) }
        default: break
        }
    }

    mutating func resolve(_ value: Plist, depth: Int) throws(PlistError) -> Plist {
        guard depth < 512 else { throw PlistError(.tooDeep(limit: 512), at: 0) }
        nodes += 1
        guard nodes <= maxObjects else { throw PlistError(.tooManyObjects(limit: maxObjects), at: 0) }
        switch value {
        case .uid(let uid): return try object(Int(uid), depth: depth)
        case .array(let elements):
            var result: [Plist] = []
            for element in elements { result.append(try resolve(element, depth: depth + 1)) }
            return .array(result)
        case .dictionary(let entries):
            var result = OrderedDictionary<String, Plist>()
            for (key, element) in entries { result[key] = try resolve(element, depth: depth + 1) }
            return .dictionary(result)
        default: return value
        }
    }

    private mutating func object(_ index: Int, depth: Int) throws(PlistError) -> Plist {
        let value = objects[index]
        guard case .dictionary(let fields) = value, let classReference = fields["$class"] else {
            switch value {
            case .string(let string): contentBytes += string.utf8.count
            case .data(let data): contentBytes += data.count
            default: break
            }
            guard contentBytes <= maxContentBytes else {
                throw PlistError(.tooMuchContent(limit: maxContentBytes), at: 0)
            }
            return try resolve(value, depth: depth + 1)
        }
        if written.contains(index) { return ["$ref": Plist(index)] }
        written.insert(index)
        guard case .uid(let classUID) = classReference, case .dictionary(let classInfo) = objects[Int(classUID)],
            let className = classInfo["$classname"]?.string
        else { throw KeyedArchive.invalid("object \(index) has no $class with a $classname") }

        var resolved: Plist
        switch className {
        case "NSString", "NSMutableString":
            resolved =
                try fields["NS.string"].map { value throws(PlistError) in try resolve(value, depth: depth + 1) } ?? ""
        case "NSDate":
            resolved = fields["NS.time"]?.double.map { .date(Date(timeIntervalSinceReferenceDate: $0)) } ?? value
        case "NSData", "NSMutableData":
            resolved = fields["NS.data"] ?? value
        case "NSUUID":
            resolved = fields["NS.uuidbytes"]?.data.flatMap(Self.uuidString) ?? value
        case "NSURL":
            let relative = try fields["NS.relative"].map { value throws(PlistError) in
                try resolve(value, depth: depth + 1)
            }
            let base = try fields["NS.base"].map { value throws(PlistError) in try resolve(value, depth: depth + 1) }
            if let relative = relative?.string {
                let baseText = base?.string.flatMap { $0 == "$null" ? nil : $0 }
                resolved = .string(
                    baseText.flatMap { URL(string: relative, relativeTo: URL(string: $0)) }?.absoluteString ?? relative)
            } else {
                resolved = value
            }
        case "NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet":
            // `NS.objects`, or (NSOrderedSet) `NS.object.0`, `NS.object.1`, ...
            var elements = fields["NS.objects"]?.array ?? []
            while let element = fields["NS.object.\(elements.count)"] { elements.append(element) }
            resolved = try resolve(.array(elements), depth: depth + 1)
        case "NSDictionary", "NSMutableDictionary":
            guard case .array(let keys)? = fields["NS.keys"], case .array(let values)? = fields["NS.objects"],
                keys.count == values.count
            else { throw KeyedArchive.invalid("dictionary object \(index) has no matching NS.keys and NS.objects") }
            var entries = OrderedDictionary<String, Plist>()
            for (key, element) in zip(keys, values) {
                let resolvedKey = try resolve(key, depth: depth + 1)
                entries[resolvedKey.string ?? resolvedKey.description] = try resolve(element, depth: depth + 1)
            }
            resolved = .dictionary(entries)
        default:
            var entries: OrderedDictionary<String, Plist> = ["$class": .string(className)]
            for (key, field) in fields where key != "$class" { entries[key] = try resolve(field, depth: depth + 1) }
            resolved = .dictionary(entries)
        }
        guard referenceCounts[index] > 1 else { return resolved }
        return ["$id": Plist(index), "$value": resolved]
    }

    private static func uuidString(_ bytes: Data) -> Plist? {
        guard bytes.count == 16 else { return nil }
        let hex = bytes.map {
            $0 < 16 ? "0" + String($0, radix: 16, uppercase: true) : String($0, radix: 16, uppercase: true)
        }
        let text =
            hex[0..<4].joined() + "-" + hex[4..<6].joined() + "-" + hex[6..<8].joined() + "-" + hex[8..<10].joined()
            + "-" + hex[10..<16].joined()
        return .string(text)
    }
}
