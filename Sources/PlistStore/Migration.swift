public import PlistKit

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Preferences {
    /// Where Foundation's UserDefaults keeps the domain `domain` on Linux:
    /// `$XDG_CONFIG_HOME/<domain>.plist` (`~/.config/<domain>.plist` when the variable is unset or
    /// relative), an XML property list.
    public static func foundationFile(forDomain domain: String) -> String {
        let environment = ProcessInfo.processInfo.environment
        let config =
            environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? "") + "/.config"
        return config + "/" + domain + ".plist"
    }

    /// The entries of a preferences file another store wrote: Foundation's XML files on Linux,
    /// Apple's binary `Library/Preferences/*.plist` files (any property-list format is read).
    /// - Throws: ``PlistStoreError/Code/damagedFile`` when it is not a property list with a
    ///   dictionary at the top; ``PlistStoreError/Code/refusedFile`` when it is a symbolic link,
    ///   not a regular file or over 64 MiB; ``PlistStoreError/Code/io`` when it cannot be read.
    public static func entries(ofPreferencesFile path: String) throws(PlistStoreError) -> PlistDictionary {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let file = DomainFile(folder: folder, domain: name.hasSuffix(".plist") ? String(name.dropLast(6)) : name)
        guard FileIdentity(path: path) != nil else { throw PlistStoreError(.io, "no such file", path: path) }
        return try file.read().0
    }

    /// Copies the entries of the preferences file at `path` (by default the one Foundation's
    /// UserDefaults keeps for this store's domain on Linux) into the store's domain and writes it.
    /// Keys the store already has keep their values, so running it again changes nothing; the
    /// old file is left as it is.
    /// - Returns: the number of keys copied; 0 when there is no such file.
    /// - Throws: as ``entries(ofPreferencesFile:)`` and ``synchronize()``.
    @discardableResult
    public func migrate(from path: String? = nil) throws(PlistStoreError) -> Int {
        let path = path ?? Self.foundationFile(forDomain: domain)
        guard FileIdentity(path: path) != nil else { return 0 }
        let old = try Self.entries(ofPreferencesFile: path)
        let current = try persistentDomainPlist(forName: domain) ?? [:]
        var copied = 0
        for (key, value) in old where current[key] == nil {
            set(value, forKey: key)
            copied += 1
        }
        try synchronize()
        return copied
    }
}
