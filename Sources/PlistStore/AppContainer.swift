import PlistKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An app's directories: Documents, Library/Preferences, Library/Caches, Library/Application
/// Support and tmp, as the iOS sandbox has them.
///
/// Folders are created (owner-only, `0700`) the first time ``directory(_:)`` or ``path(_:in:)``
/// asks for them; making a container touches nothing on disk.
public struct AppContainer: Hashable, Sendable {
    /// One of the container's directories.
    public enum Directory: String, CaseIterable, Hashable, Sendable {
        /// User data (`Documents`).
        case documents
        /// The preferences store's domain files (`Library/Preferences`).
        case preferences
        /// Data that can be rebuilt (`Library/Caches`).
        case caches
        /// The app's own files (`Library/Application Support`).
        case applicationSupport
        /// Files that need not survive (`tmp`).
        case temporary
    }

    /// The environment variable that makes every ``init(appID:)`` container of a process tree
    /// (and `plistconv defaults`) the one ``init(root:)`` lays out at that folder, for hermetic
    /// tests and portable installs. It must be an absolute path.
    public static let rootEnvironmentVariable = "PLIST_CONTAINER_ROOT"

    private let paths: [Directory: String]
    /// Under XDG: the folder that holds one folder per preferences domain
    /// (`$XDG_CONFIG_HOME`), so that every app of the user finds a suite or the global domain
    /// in the same place. Nil: every domain's file is in ``Directory/preferences``.
    private let domainFolders: String?

    /// The absolute path of `directory`, without creating it.
    public func location(of directory: Directory) -> String { paths[directory]! }

    /// The folder of the preferences domain `name`'s file: ``Directory/preferences`` under a
    /// root and on Apple platforms; under XDG, `$XDG_CONFIG_HOME/<name>` (for the app's own
    /// domain, that is ``Directory/preferences``).
    package func preferencesFolder(forDomain name: String) -> String {
        domainFolders.map { $0 + "/" + name } ?? location(of: .preferences)
    }

    /// The names of the domains that have a file: the `.plist` files of
    /// ``Directory/preferences``, or, under XDG, the folders of `$XDG_CONFIG_HOME` that hold a
    /// file named after themselves.
    package func domainNames() -> [String] {
        if let domainFolders {
            return DomainFile.names(inFolder: domainFolders).filter {
                DomainFile.isRegularFile(domainFolders + "/" + $0 + "/" + $0 + ".plist")
            }.sorted()
        }
        return DomainFile.names(inFolder: location(of: .preferences)).filter {
            $0.hasSuffix(".plist") && $0 != ".plist"
        }.map { String($0.dropLast(6)) }.sorted()
    }

    /// The iOS sandbox layout under `root`: `root/Documents`, `root/Library/Preferences`,
    /// `root/Library/Caches`, `root/Library/Application Support` and `root/tmp`. A relative
    /// `root` is taken from the current directory.
    public init(root: String) {
        var base = root.hasPrefix("/") ? root : Self.currentDirectory() + "/" + root
        while base.count > 1, base.hasSuffix("/") { base.removeLast() }
        self.init(paths: [
            .documents: base + "/Documents",
            .preferences: base + "/Library/Preferences",
            .caches: base + "/Library/Caches",
            .applicationSupport: base + "/Library/Application Support",
            .temporary: base + "/tmp",
        ])
    }

    private init(paths: [Directory: String], domainFolders: String? = nil) {
        self.paths = paths
        self.domainFolders = domainFolders
    }

    /// A container whose preferences domains are the files `<folder>/<domain>.plist` (for
    /// `plistconv defaults` given a file path); its other directories are `folder` too.
    package init(preferencesFolder folder: String) {
        self.init(paths: Dictionary(uniqueKeysWithValues: Directory.allCases.map { ($0, folder) }))
    }

    /// The directories of the app `appID` (a reverse-DNS name such as `com.example.notes`).
    ///
    /// When ``rootEnvironmentVariable`` names an absolute path, the container is
    /// `AppContainer(root: "$PLIST_CONTAINER_ROOT")`, as in an app's sandbox. Otherwise, on Linux, the XDG base
    /// directories hold one folder per app (each `XDG_*_HOME` is used only when it is an
    /// absolute path, as the specification says): preferences in `$XDG_CONFIG_HOME/<appID>`,
    /// Application Support in `$XDG_DATA_HOME/<appID>`, Documents in
    /// `$XDG_DATA_HOME/<appID>/Documents`, caches in `$XDG_CACHE_HOME/<appID>`, and tmp in
    /// `$XDG_RUNTIME_DIR/<appID>` (else `/tmp/<appID>-<uid>`). Every other preferences domain
    /// (a suite, the global domain) has a folder of its own, `$XDG_CONFIG_HOME/<domain>`, which
    /// every app of the user shares. On Apple platforms the app's real directories are used.
    /// - Throws: ``PlistStoreError/Code/invalidName`` when `appID` is not one path component.
    public init(appID: String) throws(PlistStoreError) {
        try Self.validateName(appID)
        self.init(validAppID: appID)
    }

    /// ``init(appID:)`` for a name already checked.
    init(validAppID appID: String) {
        let environment = ProcessInfo.processInfo.environment
        if let root = environment[Self.rootEnvironmentVariable], root.hasPrefix("/") {
            self.init(root: root)
            return
        }
        #if os(Linux) || os(FreeBSD) || os(OpenBSD) || os(Android)
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? Self.passwordHome()
        func xdg(_ name: String, _ fallback: String) -> String {
            if let value = environment[name], value.hasPrefix("/") { return value }
            return home + "/" + fallback
        }
        let data = xdg("XDG_DATA_HOME", ".local/share") + "/" + appID
        let config = xdg("XDG_CONFIG_HOME", ".config")
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 + "/" + appID : nil }
        self.init(
            paths: [
                .documents: data + "/Documents",
                .preferences: config + "/" + appID,
                .caches: xdg("XDG_CACHE_HOME", ".cache") + "/" + appID,
                .applicationSupport: data,
                .temporary: runtime ?? "/tmp/\(appID)-\(getuid())",
            ], domainFolders: config)
        #elseif os(macOS)
        let home = NSHomeDirectory()
        let temporary = NSTemporaryDirectory()
        self.init(paths: [
            .documents: home + "/Documents",
            .preferences: home + "/Library/Preferences",
            .caches: home + "/Library/Caches/" + appID,
            .applicationSupport: home + "/Library/Application Support/" + appID,
            .temporary: temporary.hasSuffix("/") ? String(temporary.dropLast()) : temporary,
        ])
        #else
        self.init(root: NSHomeDirectory())
        #endif
    }

    /// The path of `directory`, created (with its missing parents, owner-only) if need be.
    ///
    /// The temporary directory, which may sit in a folder every user can write (`/tmp`), must
    /// be a folder of this user, not a symbolic link.
    /// - Throws: ``PlistStoreError/Code/io`` when a folder cannot be created;
    ///   ``PlistStoreError/Code/refusedFile`` when the temporary directory is a link or another
    ///   user's.
    public func directory(_ directory: Directory) throws(PlistStoreError) -> String {
        let path = location(of: directory)
        try DomainFile.createFolders(path, isPrivate: directory == .temporary)
        return path
    }

    /// The path of `relativePath` inside `directory`, whose folders (but not the file) are
    /// created on the way.
    /// - Throws: ``PlistStoreError/Code/invalidName`` when `relativePath` is empty, absolute,
    ///   holds a NUL byte or a `..` component, so would leave the container; ``PlistStoreError/Code/io``
    ///   when a folder cannot be created.
    public func path(_ relativePath: String, in directory: Directory) throws(PlistStoreError) -> String {
        guard !relativePath.isEmpty, !relativePath.hasPrefix("/"), !relativePath.utf8.contains(0) else {
            throw PlistStoreError(
                .invalidName, "a path in the container must be relative, non-empty and without NUL", path: relativePath)
        }
        let components = relativePath.split(separator: "/").filter { $0 != "." }
        guard !components.contains("..") else {
            throw PlistStoreError(.invalidName, "'..' would leave the container", path: relativePath)
        }
        guard !components.isEmpty else {
            throw PlistStoreError(.invalidName, "the path names no file", path: relativePath)
        }
        let base = try self.directory(directory)
        let full = base + "/" + components.joined(separator: "/")
        if components.count > 1 {
            try DomainFile.createFolders(base + "/" + components.dropLast().joined(separator: "/"))
        }
        return full
    }

    /// Refuses a name that is not exactly one path component, that holds a control character
    /// (a line feed would split the name across two lines of `defaults domains`, an escape
    /// would steer the terminal), or that is longer than `maxNameLength` bytes.
    package static func validateName(_ name: String) throws(PlistStoreError) {
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.utf8.contains(0) else {
            throw PlistStoreError(
                .invalidName, "a name must be one path component (no '/', NUL, '.' or '..')", path: name)
        }
        guard name.escapingControlCharacters == name else {
            throw PlistStoreError(.invalidName, "a name may not hold control characters", path: name)
        }
        guard name.utf8.count <= maxNameLength else {
            throw PlistStoreError(
                .invalidName, "a name may have at most \(maxNameLength) bytes (this one has \(name.utf8.count))",
                path: String(name.prefix(32)) + "...")
        }
    }

    /// The longest name, in UTF-8 bytes: a file name has at most 255, and the store's files
    /// add up to 40 bytes to a domain's name (`.NAME.plist.SLOT.tmp`, `NAME.plist.corrupt-TIME-N`).
    package static let maxNameLength = 215

    private static func currentDirectory() -> String { FileIO.currentFolder() ?? "/" }

    #if os(Linux) || os(FreeBSD) || os(OpenBSD) || os(Android)
    private static func passwordHome() -> String {
        // SAFETY: `getpwuid`'s entry stays valid until the next call of the `getpw*` family;
        // `pw_dir` is a NUL-terminated string inside it, copied at once.
        guard let entry = unsafe getpwuid(getuid()), let directory = unsafe entry.pointee.pw_dir else { return "/" }
        return unsafe String(cString: directory)
    }
    #endif
}
