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

/// Which file a path named when it was looked at: a replaced file has a new inode, an edited
/// one a new time or size.
package struct FileIdentity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
    var seconds: Int
    var nanoseconds: Int
    var size: Int64

    /// The identity of the file at `path`, or nil when there is none.
    package init?(path: String) {
        var info = stat()
        guard unsafe stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        #if canImport(Darwin)
        seconds = Int(info.st_mtimespec.tv_sec)
        nanoseconds = Int(info.st_mtimespec.tv_nsec)
        #else
        seconds = Int(info.st_mtim.tv_sec)
        nanoseconds = Int(info.st_mtim.tv_nsec)
        #endif
        size = Int64(info.st_size)
    }
}

/// One domain's file, `<folder>/<domain>.plist`, with its lock file `<domain>.plist.lock`
/// beside it. Everything here is a plain system call on the caller's thread.
struct DomainFile: Sendable {
    let path: String
    let folder: String
    let fileName: String

    init(folder: String, domain: String) {
        self.folder = folder
        fileName = domain + ".plist"
        path = folder + "/" + fileName
    }

    /// The entries on disk and the file's identity; empty and nil when there is no file.
    /// - Throws: `.damagedFile` (not yet moved aside) when the file is not a property list with
    ///   a dictionary at the top; `.io` when it cannot be read.
    func read() throws(PlistStoreError) -> (PlistDictionary, FileIdentity?) {
        guard let identity = FileIdentity(path: path) else { return ([:], nil) }
        let value: Plist
        do {
            value = try Plist(contentsOf: path)
        } catch {
            if error.code == .io {
                if FileIdentity(path: path) == nil { return ([:], nil) }
                throw PlistStoreError(.io, "cannot read: " + error.message, path: path)
            }
            throw PlistStoreError(.damagedFile, "\(error)", path: path)
        }
        guard case .dictionary(let entries) = value else {
            throw PlistStoreError(.damagedFile, "the top level is not a dictionary", path: path)
        }
        return (entries, identity)
    }

    /// Runs `body` holding the exclusive `flock` on the lock file, which other processes'
    /// writers of this domain take too.
    func withLock<R>(_ body: () throws(PlistStoreError) -> R) throws(PlistStoreError) -> R {
        let lockPath = path + ".lock"
        let fd = unsafe open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw PlistStoreError(.io, "cannot open the lock file: " + systemReason(), path: lockPath) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw PlistStoreError(.io, "cannot lock: " + systemReason(), path: lockPath) }
        }
        return try body()
    }

    /// Moves a damaged file aside to `<path>.corrupt-<UTC time>` and returns that path.
    func moveAside() -> String? {
        var now = time(nil)
        var parts = unsafe tm()
        unsafe gmtime_r(&now, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let stamp = unsafe "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
        var target = path + ".corrupt-" + stamp
        var suffix = 1
        while FileIdentity(path: target) != nil {
            suffix += 1
            target = path + ".corrupt-" + stamp + "-\(suffix)"
        }
        return unsafe rename(path, target) == 0 ? target : nil
    }

    /// Writes `entries` as a binary property list: temporary file, fsync, rename, fsync of the
    /// folder. A new file gets mode 0600.
    func write(_ entries: PlistDictionary) throws(PlistStoreError) {
        let isNew = FileIdentity(path: path) == nil
        do {
            let bytes = try Plist.dictionary(entries).bytes(format: .binary)
            try FileIO.writeAtomically(bytes, to: path)
        } catch {
            throw PlistStoreError(.io, "cannot write: " + error.message, path: path)
        }
        if isNew { unsafe chmod(path, 0o600) }
        try syncFolder()
    }

    /// Removes the file (a domain removed as a whole), then syncs the folder.
    func remove() throws(PlistStoreError) {
        guard unsafe unlink(path) == 0 || errno == ENOENT else { throw PlistStoreError(.io, "cannot remove: " + systemReason(), path: path) }
        try syncFolder()
    }

    /// Makes the folder's entries (the rename) durable.
    private func syncFolder() throws(PlistStoreError) {
        let fd = unsafe open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw PlistStoreError(.io, "cannot open the folder: " + systemReason(), path: folder) }
        defer { close(fd) }
        guard fsync(fd) == 0 || errno == EINVAL else {
            throw PlistStoreError(.io, "cannot sync the folder: " + systemReason(), path: folder)
        }
    }

    /// Removes the temporary files that a writer killed mid-write left (`.<name>.<n>.tmp`).
    /// Called holding the lock, so no live writer owns one.
    func removeStaleTemporaries() {
        guard let dir = unsafe opendir(folder) else { return }
        defer { unsafe closedir(dir) }
        let prefix = "." + fileName + "."
        while let entry = unsafe readdir(dir) {
            let name = unsafe withUnsafeBytes(of: entry.pointee.d_name) { raw in
                unsafe String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(prefix), name.hasSuffix(".tmp") { unsafe unlink(folder + "/" + name) }
        }
    }
}
