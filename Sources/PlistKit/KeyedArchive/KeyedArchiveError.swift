/// Why a keyed archive could not be read or written, and where in it.
///
/// `description` names the problem and the place: the object (its index in `$objects`, written
/// `#3`) and the key (`object #3, key "title": the key is missing`).
public struct KeyedArchiveError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A kind of problem. New codes may come in later versions, so compare with `==` or switch
    /// with a `default:` case; the message and place say the rest.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, as spelled in Swift (`keyNotFound`, `tooDeep`).
        public let description: String

        private init(_ name: String) { description = name }

        /// The property list is not a dictionary with an `$objects` array.
        public static let notAnArchive = Code("notAnArchive")

        /// `$archiver` is missing or names another archiver (the value found, if a string).
        public static let wrongArchiver = Code("wrongArchiver")

        /// `$version` is missing or is not 100000 (the value found, if an integer).
        public static let wrongVersion = Code("wrongVersion")

        /// `$top` is missing or is not a dictionary.
        public static let missingTop = Code("missingTop")

        /// A key that must be present is absent.
        public static let keyNotFound = Code("keyNotFound")

        /// A value that should be an object reference (`CF$UID`) is something else.
        public static let notAReference = Code("notAReference")

        /// An object reference beyond the end of `$objects`.
        public static let referenceOutOfRange = Code("referenceOutOfRange")

        /// An object without a `$class`, or whose `$class` is not a `$classname`/`$classes` entry.
        public static let missingClass = Code("missingClass")

        /// A class that may not be decoded here (`allowed` lists the class names that may).
        public static let classNotAllowed = Code("classNotAllowed")

        /// A value of another kind than the one expected (`expected` describes it).
        public static let typeMismatch = Code("typeMismatch")

        /// A reference back to a value (not a class instance) that is still being decoded.
        public static let cycleThroughValue = Code("cycleThroughValue")

        /// Objects nested deeper than the limit.
        public static let tooDeep = Code("tooDeep")

        /// A value that an archive cannot hold (such as a `Plist.uid`).
        public static let notArchivable = Code("notArchivable")
    }

    /// What went wrong, with the details that go into the message.
    package enum Kind: Hashable, Sendable {
        /// The property list is not a dictionary with an `$objects` array.
        case notAnArchive
        /// `$archiver` is missing or names another archiver (the value found, if a string).
        case wrongArchiver(String?)
        /// `$version` is missing or is not 100000 (the value found, if an integer).
        case wrongVersion(Int64?)
        /// `$top` is missing or is not a dictionary.
        case missingTop
        /// A key that must be present is absent.
        case keyNotFound(String)
        /// A value that should be an object reference (`CF$UID`) is something else.
        case notAReference
        /// An object reference beyond the end of `$objects`.
        case referenceOutOfRange(UInt64, objectCount: Int)
        /// An object without a `$class`, or whose `$class` is not a `$classname`/`$classes` entry.
        case missingClass
        /// A class that may not be decoded here (`allowed` lists the class names that may).
        case classNotAllowed(String, allowed: [String])
        /// A value of another kind than the one expected (`expected` describes it).
        case typeMismatch(expected: String)
        /// A reference back to a value (not a class instance) that is still being decoded.
        case cycleThroughValue
        /// Objects nested deeper than the limit.
        case tooDeep(limit: Int)
        /// A value that an archive cannot hold (such as a `Plist.uid`).
        case notArchivable(String)
    }

    /// What went wrong, with its details.
    package var kind: Kind
    /// What went wrong.
    public var code: Code { kind.details.code }
    /// A sentence that says what is wrong, without the place.
    public var message: String { kind.details.message }
    /// The index in `$objects` of the object where the problem was found, if any.
    public var object: UInt64?
    /// The key, in that object (or in `$top`), where the problem was found, if any.
    public var key: String?

    /// An error of `kind` found in `object` at `key`.
    package init(_ kind: Kind, object: UInt64? = nil, key: String? = nil) {
        self.kind = kind
        self.object = object
        self.key = key
    }

    /// The problem and where it was found, on one line.
    public var description: String {
        var place: [String] = []
        if let object { place.append("object #\(object)") }
        if let key { place.append("key \(key.debugDescription)") }
        return place.isEmpty ? message : place.joined(separator: ", ") + ": " + message
    }
}

extension KeyedArchiveError.Kind {
    /// The public code of this kind, and a sentence that says what is wrong, without the
    /// location: one case each, so a kind's code and message are written together.
    package var details: (code: KeyedArchiveError.Code, message: String) {
        switch self {
        case .notAnArchive:
            (.notAnArchive, "not a keyed archive: the top level is not a dictionary with an $objects array")
        case .wrongArchiver(let name):
            (.wrongArchiver, "$archiver is \(name.map(\.debugDescription) ?? "missing"), not \"NSKeyedArchiver\"")
        case .wrongVersion(let version):
            (.wrongVersion, "$version is \(version.map(String.init) ?? "missing or not an integer"), not 100000")
        case .missingTop:
            (.missingTop, "$top is missing or is not a dictionary")
        case .keyNotFound(let key):
            (.keyNotFound, "the key \(key.debugDescription) is missing")
        case .notAReference:
            (.notAReference, "the value is not an object reference (CF$UID)")
        case .referenceOutOfRange(let uid, let objectCount):
            (.referenceOutOfRange, "reference to object #\(uid), but $objects holds only \(objectCount) objects")
        case .missingClass:
            (.missingClass, "the object has no valid $class (a reference to a dictionary with $classname and $classes)")
        case .classNotAllowed(let name, let allowed):
            (
                .classNotAllowed,
                "class \(name.debugDescription) is not allowed here (allowed: \(allowed.joined(separator: ", ")))"
            )
        case .typeMismatch(let expected):
            (.typeMismatch, "expected \(expected)")
        case .cycleThroughValue:
            (.cycleThroughValue, "a reference cycle through a value that is not a class instance")
        case .tooDeep(let limit):
            (.tooDeep, "objects are nested deeper than the limit of \(limit) (raise maxDepth to allow more)")
        case .notArchivable(let what):
            (.notArchivable, "\(what) cannot be stored in a keyed archive")
        }
    }
}
