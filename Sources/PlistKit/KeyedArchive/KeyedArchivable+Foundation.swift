import PlistCore

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

// Foundation's classes as NSKeyedArchiver writes them: strings, numbers and data as plain values,
// the others as objects with a `$class` and Foundation's field names.

extension String: KeyedArchivable {
    /// Stores an `NSString` (a plain string, stored once however often it is used).
    public func archiveObject(in archive: KeyedArchiveEncoder) throws -> UInt64 { archive.writer.string(self) }

    /// Reads an `NSString` or `NSMutableString`.
    public static func unarchiveObject(_ reference: UInt64, in archive: KeyedArchiveDecoder) throws -> String {
        let reader = archive.reader
        if case .string(let string) = try reader.object(reference) { return string }
        let fields = try reader.classFields(reference, allowed: ["NSString", "NSMutableString"])
        guard case .string(let string) = try reader.field("NS.string", of: fields, object: reference) else {
            throw KeyedArchiveError(.typeMismatch(expected: "a string"), object: reference, key: "NS.string")
        }
        return string
    }
}

extension Bool: KeyedArchivable {
    /// Stores an `NSNumber` holding a Boolean.
    public func archiveObject(in archive: KeyedArchiveEncoder) throws -> UInt64 { archive.writer.append(.bool(self)) }

    /// Reads an `NSNumber` holding a Boolean.
    public static func unarchiveObject(_ reference: UInt64, in archive: KeyedArchiveDecoder) throws -> Bool {
        try archive.reader.number(reference)
    }
}

extension Int: KeyedArchivable {
    /// Stores an `NSNumber` holding an integer.
    public func archiveObject(in archive: KeyedArchiveEncoder) throws -> UInt64 { archive.writer.append(Plist(self)) }

    /// Reads an `NSNumber` holding an integer that fits.
    public static func unarchiveObject(_ reference: UInt64, in archive: KeyedArchiveDecoder) throws -> Int {
        try archive.reader.number(reference)
    }
}

extension Int64: KeyedArchivable {
    /// Stores an `NSNumber` holding an integer.
    public func archiveObject(in archive: KeyedArchiveEncoder) throws -> UInt64 { archive.writer.append(Plist(self)) }

    /// Reads an `NSNumber` holding an integer that fits.
    public static func unarchiveObject(_ reference: UInt64, in archive: KeyedArchiveDecoder) throws -> Int64 {
        try archive.reader.number(reference)
    }
}

extension UInt64: KeyedArchivable {
    /// Stores an `NSNumber` holding an integer.
    public func archiveObject(in archive: KeyedArchiveEncoder) throws -> UInt64 { archive.writer.append(Plist(self)) }

    /// Reads an `NSNumber` holding a non-negative integer.
    public static func unarchiveObject(_ reference: UInt64, in archive: KeyedArchiveDecoder) throws -> UInt64 {
        try archive.reader.number(reference)
    }
}

extension Double: KeyedArchivable {
    /// Stores an `NSNumber` holding a real.
    public func archiveObject(in archive: KeyedArchiveEncoder) throws -> UInt64 { archive.writer.append(.real(self)) }

    /// Reads an `NSNumber` holding a real or an integer.
    public static func unarchiveObject(_ reference: UInt64, in archive: KeyedArchiveDecoder) throws -> Double {
        try archive.reader.number(reference)
    }
}

extension Data: KeyedArchivable {
    /// Stores an `NSData` (plain data).
    public func archiveObject(in archive: KeyedArchiveEncoder) throws -> UInt64 { archive.writer.append(.data(self)) }

    /// Reads an `NSData` or `NSMutableData`.
    public static func unarchiveObject(_ reference: UInt64, in archive: KeyedArchiveDecoder) throws -> Data {
        let reader = archive.reader
        if case .data(let data) = try reader.object(reference) { return data }
        let fields = try reader.classFields(reference, allowed: ["NSData", "NSMutableData"])
        guard case .data(let data) = try reader.field("NS.data", of: fields, object: reference) else {
            throw KeyedArchiveError(.typeMismatch(expected: "data"), object: reference, key: "NS.data")
        }
        return data
    }
}

extension Date: KeyedArchivable {
    /// Stores an `NSDate` (`NS.time`, seconds since 2001-01-01 00:00:00 UTC).
    public func archiveObject(in archive: KeyedArchiveEncoder) throws -> UInt64 {
        try archive.writer.valueObject(classChain: ["NSDate", "NSObject"]) { coder in
            coder.encode(timeIntervalSinceReferenceDate, forKey: "NS.time")
        }
    }

    /// Reads an `NSDate`.
    public static func unarchiveObject(_ reference: UInt64, in archive: KeyedArchiveDecoder) throws -> Date {
        let reader = archive.reader
        let fields = try reader.classFields(reference, allowed: ["NSDate"])
        let time = try reader.field("NS.time", of: fields, object: reference)
        guard let seconds = time.double ?? time.int64.map(Double.init) else {
            throw KeyedArchiveError(.typeMismatch(expected: "a number of seconds"), object: reference, key: "NS.time")
        }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }
}

extension UUID: KeyedArchivable {
    /// Stores an `NSUUID` (`NS.uuidbytes`, 16 bytes).
    public func archiveObject(in archive: KeyedArchiveEncoder) throws -> UInt64 {
        try archive.writer.valueObject(classChain: ["NSUUID", "NSObject"]) { coder in
            let u = uuid
            let bytes = [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15]
            coder.fields["NS.uuidbytes"] = .data(Data(bytes))
        }
    }

    /// Reads an `NSUUID`.
    public static func unarchiveObject(_ reference: UInt64, in archive: KeyedArchiveDecoder) throws -> UUID {
        let reader = archive.reader
        let fields = try reader.classFields(reference, allowed: ["NSUUID"])
        guard case .data(let bytes) = try reader.field("NS.uuidbytes", of: fields, object: reference),
            bytes.count == 16
        else {
            throw KeyedArchiveError(.typeMismatch(expected: "16 bytes of data"), object: reference, key: "NS.uuidbytes")
        }
        let b = [UInt8](bytes)
        return UUID(
            uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])
        )
    }
}

extension URL: KeyedArchivable {
    /// Stores an `NSURL` (`NS.base` `$null`, `NS.relative` the absolute string).
    public func archiveObject(in archive: KeyedArchiveEncoder) throws -> UInt64 {
        try archive.writer.valueObject(classChain: ["NSURL", "NSObject"]) { coder in
            coder.fields["NS.base"] = .uid(0)
            try coder.encode(absoluteString, forKey: "NS.relative")
        }
    }

    /// Reads an `NSURL`: `NS.relative` resolved against `NS.base` when that is not `$null`.
    public static func unarchiveObject(_ reference: UInt64, in archive: KeyedArchiveDecoder) throws -> URL {
        try archive.reader.value(reference, as: URL.self) {
            let fields = try archive.reader.classFields(reference, allowed: ["NSURL"])
            let coder = KeyedArchiveDecoder(reader: archive.reader, fields: fields, object: reference)
            let base = try coder.decodeIfPresent(URL.self, forKey: "NS.base")
            let relative = try coder.decode(String.self, forKey: "NS.relative")
            guard let url = URL(string: relative, relativeTo: base) else {
                throw KeyedArchiveError(.typeMismatch(expected: "a URL"), object: reference, key: "NS.relative")
            }
            return url
        }
    }
}

extension Optional: KeyedArchivable where Wrapped: KeyedArchivable {
    /// Stores the value, or `$null` for `nil`.
    public func archiveObject(in archive: KeyedArchiveEncoder) throws -> UInt64 {
        try self?.archiveObject(in: archive) ?? 0
    }

    /// Reads the value, or `nil` for `$null`.
    public static func unarchiveObject(_ reference: UInt64, in archive: KeyedArchiveDecoder) throws -> Wrapped? {
        reference == 0 ? nil : try Wrapped.unarchiveObject(reference, in: archive)
    }
}

extension Array: KeyedArchivable where Element: KeyedArchivable {
    /// Stores an `NSArray` (`NS.objects`).
    public func archiveObject(in archive: KeyedArchiveEncoder) throws -> UInt64 {
        try archive.writer.valueObject(classChain: ["NSArray", "NSObject"]) { coder in
            coder.fields["NS.objects"] = .array(try map { .uid(try $0.archiveObject(in: coder)) })
        }
    }

    /// Reads an `NSArray` or `NSMutableArray`.
    public static func unarchiveObject(_ reference: UInt64, in archive: KeyedArchiveDecoder) throws -> [Element] {
        let reader = archive.reader
        return try reader.value(reference, as: [Element].self) {
            let fields = try reader.classFields(reference, allowed: ["NSArray", "NSMutableArray"])
            return try reader.references("NS.objects", of: fields, object: reference).map {
                try Element.unarchiveObject($0, in: archive)
            }
        }
    }
}

extension Set: KeyedArchivable where Element: KeyedArchivable {
    /// Stores an `NSSet` (`NS.objects`).
    public func archiveObject(in archive: KeyedArchiveEncoder) throws -> UInt64 {
        try archive.writer.valueObject(classChain: ["NSSet", "NSObject"]) { coder in
            coder.fields["NS.objects"] = .array(try map { .uid(try $0.archiveObject(in: coder)) })
        }
    }

    /// Reads an `NSSet` or `NSMutableSet`.
    public static func unarchiveObject(_ reference: UInt64, in archive: KeyedArchiveDecoder) throws -> Set<Element> {
        let reader = archive.reader
        return try reader.value(reference, as: Set<Element>.self) {
            let fields = try reader.classFields(reference, allowed: ["NSSet", "NSMutableSet"])
            return Set(
                try reader.references("NS.objects", of: fields, object: reference).map {
                    try Element.unarchiveObject($0, in: archive)
                })
        }
    }
}

extension Dictionary: KeyedArchivable where Key: KeyedArchivable, Value: KeyedArchivable {
    /// Stores an `NSDictionary` (`NS.keys` and `NS.objects`).
    public func archiveObject(in archive: KeyedArchiveEncoder) throws -> UInt64 {
        try archive.writer.valueObject(classChain: ["NSDictionary", "NSObject"]) { coder in
            coder.fields["NS.keys"] = .array(try keys.map { .uid(try $0.archiveObject(in: coder)) })
            coder.fields["NS.objects"] = .array(try values.map { .uid(try $0.archiveObject(in: coder)) })
        }
    }

    /// Reads an `NSDictionary` or `NSMutableDictionary`; a repeated key keeps its last value.
    public static func unarchiveObject(_ reference: UInt64, in archive: KeyedArchiveDecoder) throws -> [Key: Value] {
        let reader = archive.reader
        return try reader.value(reference, as: [Key: Value].self) {
            let (keys, values) = try reader.dictionaryReferences(reference)
            var result: [Key: Value] = [:]
            for (key, value) in zip(keys, values) {
                result[try Key.unarchiveObject(key, in: archive)] = try Value.unarchiveObject(value, in: archive)
            }
            return result
        }
    }
}

extension Plist: KeyedArchivable {
    /// Stores the Foundation object for the value: `NSString`, `NSNumber`, `NSDate`, `NSData`,
    /// `NSArray` or `NSDictionary`.
    /// - Throws: `.notArchivable` for a `.uid`.
    public func archiveObject(in archive: KeyedArchiveEncoder) throws -> UInt64 {
        switch self {
        case .string(let string): try string.archiveObject(in: archive)
        case .integer, .real, .bool, .data: archive.writer.append(self)
        case .date(let date): try date.archiveObject(in: archive)
        case .array(let elements): try elements.archiveObject(in: archive)
        case .dictionary(let entries):
            try archive.writer.valueObject(classChain: ["NSDictionary", "NSObject"]) { coder in
                coder.fields["NS.keys"] = .array(try entries.keys.map { .uid(try $0.archiveObject(in: coder)) })
                coder.fields["NS.objects"] = .array(try entries.values.map { .uid(try $0.archiveObject(in: coder)) })
            }
        case .uid: throw KeyedArchiveError(.notArchivable("a UID value"))
        }
    }

    /// Reads an `NSString`, `NSNumber`, `NSDate`, `NSData`, `NSArray` or `NSDictionary` (with
    /// string keys), mutable or not, as a value (an `NSSet` reads as an array).
    public static func unarchiveObject(_ reference: UInt64, in archive: KeyedArchiveDecoder) throws -> Plist {
        let reader = archive.reader
        guard let (chain, fields) = try reader.classChain(reference) else { return try reader.object(reference) }
        let allowed: [String] = [
            "NSString", "NSMutableString", "NSDate", "NSData", "NSMutableData", "NSArray", "NSMutableArray", "NSSet",
            "NSMutableSet", "NSDictionary", "NSMutableDictionary",
        ]
        guard let name = chain.first(where: allowed.contains) else {
            throw KeyedArchiveError(.classNotAllowed(chain[0], allowed: allowed), object: reference)
        }
        return try reader.value(reference, as: Plist.self) {
            switch name {
            case "NSString", "NSMutableString": .string(try String.unarchiveObject(reference, in: archive))
            case "NSDate": .date(try Date.unarchiveObject(reference, in: archive))
            case "NSData", "NSMutableData": .data(try Data.unarchiveObject(reference, in: archive))
            case "NSDictionary", "NSMutableDictionary":
                .dictionary(try stringKeyed(reference, in: archive))
            default:
                .array(
                    try reader.references("NS.objects", of: fields, object: reference).map {
                        try Plist.unarchiveObject($0, in: archive)
                    })
            }
        }
    }
}

/// The entries of the `NSDictionary` at `reference`, whose keys must be strings.
private func stringKeyed(_ reference: UInt64, in archive: KeyedArchiveDecoder) throws -> PlistDictionary {
    let (keys, values) = try archive.reader.dictionaryReferences(reference)
    var entries: PlistDictionary = [:]
    for (key, value) in zip(keys, values) {
        entries[try String.unarchiveObject(key, in: archive)] = try Plist.unarchiveObject(value, in: archive)
    }
    return entries
}

extension ArchiveReader {
    /// A plain number or Boolean object at `uid` as `T`.
    func number<T>(_ uid: UInt64) throws(KeyedArchiveError) -> T {
        do throws(KeyedArchiveError) {
            return try plain(try object(uid), as: T.self)
        } catch {
            throw KeyedArchiveError(error.kind, object: uid)
        }
    }

    /// The key and value references of the `NSDictionary` at `uid`.
    func dictionaryReferences(_ uid: UInt64) throws(KeyedArchiveError) -> (keys: [UInt64], values: [UInt64]) {
        let fields = try classFields(uid, allowed: ["NSDictionary", "NSMutableDictionary"])
        let keys = try references("NS.keys", of: fields, object: uid)
        let values = try references("NS.objects", of: fields, object: uid)
        guard keys.count == values.count else {
            throw KeyedArchiveError(.typeMismatch(expected: "as many NS.keys as NS.objects"), object: uid)
        }
        return (keys, values)
    }
}
