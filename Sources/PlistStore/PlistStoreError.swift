import PlistKit

/// What went wrong in the container or the preferences store, with the path concerned.
public struct PlistStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of problem. New codes may be added without breaking a client's `switch`, as
    /// `PlistError.Code`'s may (compare with `==`, or switch with a `default`).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, as its static property spells it.
        public let description: String

        private init(_ name: String) { description = name }

        /// A name or relative path would leave its folder (`..`, an absolute path, a NUL byte, a
        /// slash in a domain name, an empty name).
        public static let invalidName = Code("invalidName")
        /// A domain file could not be read as a property list whose top level is a dictionary. It
        /// was moved aside (see ``movedTo``) and the domain starts empty.
        public static let damagedFile = Code("damagedFile")
        /// A domain file or its lock file is a symbolic link, not a regular file (a folder, a
        /// FIFO, a device), or larger than a domain file may be; a private folder is a link or
        /// another user's. It is left as it is, and nothing is read from or written to it.
        public static let refusedFile = Code("refusedFile")
        /// The system refused a file operation (the message has its reason).
        public static let io = Code("io")
        /// A value could not be encoded as, or decoded from, a property list.
        public static let invalidValue = Code("invalidValue")
    }

    /// The kind of problem.
    public var code: Code
    /// What happened, in one line.
    public var message: String
    /// The file or name concerned.
    public var path: String
    /// Where a damaged file was moved to.
    public var movedTo: String?

    package init(_ code: Code, _ message: String, path: String, movedTo: String? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.movedTo = movedTo
    }

    /// The path and the message on one line (control characters in the path escaped).
    public var description: String {
        ("\(path): \(message)" + (movedTo.map { " (kept as \($0))" } ?? "")).escapingControlCharacters
    }
}
