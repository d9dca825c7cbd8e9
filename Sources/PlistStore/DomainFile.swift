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

    /// The identity of the file at `path` (not following a symbolic link), or nil when there
    /// is none.
    package init?(path: String) {
        var info = stat()
        guard unsafe lstat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    init(_ info: stat) {
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
///
/// Neither file is ever opened through a symbolic link (`O_NOFOLLOW`) or when it is not a
/// regular file, and the domain file is refused past ``maxSize`` before it is read: a link,
/// a FIFO, a device or a huge file at the domain's name is an error
/// (``PlistStoreError/Code/refusedFile``) and is left as it is.
struct DomainFile: Sendable {
    let path: String
    let folder: String
    let fileName: String

    /// The largest domain file read or written: 64 MiB. Apple's systems warn at 4 MB and
    /// refuse more on some devices; a domain near this size belongs in a file of its own.
    static let maxSize = 64 << 20

    init(folder: String, domain: String) {
        self.folder = folder
        fileName = domain + ".plist"
        path = folder + "/" + fileName
    }

    /// The entries on disk and the file's identity; empty and nil when there is no file.
    /// - Throws: `.damagedFile` (not yet moved aside) when the file is not a property list with
    ///   a dictionary at the top; `.refusedFile` when it is a link, not a regular file, or too
    ///   large; `.io` when it cannot be read.
    func read() throws(PlistStoreError) -> (PlistDictionary, FileIdentity?) {
        let fd = unsafe open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return ([:], nil) }
            if errno == ELOOP { throw Self.refusedLink(path) }
            throw PlistStoreError(.io, "cannot read: " + systemReason(), path: path)
        }
        defer { close(fd) }
        var info = stat()
        guard unsafe fstat(fd, &info) == 0 else {
            throw PlistStoreError(.io, "cannot read: " + systemReason(), path: path)
        }
        try Self.checkRegular(info, path)
        guard Int(info.st_size) <= Self.maxSize else {
            throw PlistStoreError(
                .refusedFile,
                "is \(info.st_size) bytes, more than the \(Self.maxSize >> 20) MiB a domain file may hold",
                path: path)
        }
        let bytes: Data
        do {
            bytes = try FileIO.contents(ofRegularFile: fd, size: Int(info.st_size), limit: Self.maxSize)
        } catch {
            throw PlistStoreError(.io, "cannot read: " + error.message, path: path)
        }
        let value: Plist
        do {
            value = try Plist(bytes: bytes)
        } catch {
            throw PlistStoreError(.damagedFile, "\(error)", path: path)
        }
        guard case .dictionary(let entries) = value else {
            throw PlistStoreError(.damagedFile, "the top level is not a dictionary", path: path)
        }
        return (entries, FileIdentity(info))
    }

    /// Runs `body` holding the exclusive `flock` on the lock file, which other processes'
    /// writers of this domain take too.
    func withLock<R>(_ body: () throws(PlistStoreError) -> R) throws(PlistStoreError) -> R {
        let lockPath = path + ".lock"
        let fd = unsafe open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            if errno == ELOOP { throw Self.refusedLink(lockPath) }
            throw PlistStoreError(.io, "cannot open the lock file: " + systemReason(), path: lockPath)
        }
        defer { close(fd) }
        var info = stat()
        guard unsafe fstat(fd, &info) == 0 else {
            throw PlistStoreError(.io, "cannot lock: " + systemReason(), path: lockPath)
        }
        try Self.checkRegular(info, lockPath)
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
        let stamp =
            unsafe "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
        var target = path + ".corrupt-" + stamp
        var suffix = 1
        while FileIdentity(path: target) != nil {
            suffix += 1
            target = path + ".corrupt-" + stamp + "-\(suffix)"
        }
        return unsafe rename(path, target) == 0 ? target : nil
    }

    /// Writes `entries` as a binary property list: temporary file (a new file's with mode
    /// 0600 from its creation), fsync, rename over the file (never through a link), fsync of
    /// the folder.
    func write(_ entries: PlistDictionary) throws(PlistStoreError) {
        try checkReplaceable()
        let bytes: [UInt8]
        do {
            bytes = try Plist.dictionary(entries).bytes(format: .binary)
        } catch {
            throw PlistStoreError(.invalidValue, "cannot encode the domain: " + error.message, path: path)
        }
        guard bytes.count <= Self.maxSize else {
            throw PlistStoreError(
                .invalidValue,
                "the domain would take \(bytes.count) bytes, more than the \(Self.maxSize >> 20) MiB a domain file may hold",
                path: path)
        }
        do {
            try FileIO.writeAtomically(bytes, to: path, ownerOnly: true, followsLink: false)
        } catch {
            throw PlistStoreError(.io, "cannot write: " + error.message, path: path)
        }
    }

    /// Removes the file (a domain removed as a whole), then syncs the folder.
    func remove() throws(PlistStoreError) {
        try checkReplaceable()
        guard unsafe unlink(path) == 0 || errno == ENOENT else {
            throw PlistStoreError(.io, "cannot remove: " + systemReason(), path: path)
        }
        let fd = unsafe open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw PlistStoreError(.io, "cannot open the folder: " + systemReason(), path: folder) }
        defer { close(fd) }
        guard fsync(fd) == 0 || errno == EINVAL else {
            throw PlistStoreError(.io, "cannot sync the folder: " + systemReason(), path: folder)
        }
    }

    /// Refuses to replace or remove what is at the path when it is a link or not a regular file.
    private func checkReplaceable() throws(PlistStoreError) {
        var info = stat()
        guard unsafe lstat(path, &info) == 0 else { return }
        if (info.st_mode & S_IFMT) == S_IFLNK { throw Self.refusedLink(path) }
        try Self.checkRegular(info, path)
    }

    private static func refusedLink(_ path: String) -> PlistStoreError {
        PlistStoreError(
            .refusedFile, "is a symbolic link; preferences are never read or written through a link", path: path)
    }

    private static func checkRegular(_ info: stat, _ path: String) throws(PlistStoreError) {
        let kind: String
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: kind = "a folder"
        case S_IFIFO: kind = "a FIFO"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        case S_IFSOCK: kind = "a socket"
        default: kind = "a special file"
        }
        throw PlistStoreError(.refusedFile, "is \(kind), not a regular file", path: path)
    }
}

extension DomainFile {
    /// The names in `folder` (without `.` and `..`); empty when it cannot be listed.
    static func names(inFolder folder: String) -> [String] {
        guard let dir = unsafe opendir(folder) else { return [] }
        defer { unsafe closedir(dir) }
        var names: [String] = []
        while let entry = unsafe readdir(dir) {
            let name = unsafe withUnsafeBytes(of: entry.pointee.d_name) { raw in
                unsafe String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Whether a regular file is at `path` (a link is not followed).
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return unsafe lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// `mkdir -p` with mode 0700 for the folders it makes. With `isPrivate`, the last folder
    /// must also be a folder of this user and not a link (a folder in a shared place such as
    /// `/tmp`, where another user may have made it first).
    static func createFolders(_ path: String, isPrivate: Bool = false) throws(PlistStoreError) {
        var info = stat()
        if unsafe lstat(path, &info) != 0 {
            if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
                try createFolders(String(path[..<slash]))
            }
            if unsafe mkdir(path, 0o700) != 0, errno != EEXIST {
                throw PlistStoreError(.io, systemReason(), path: path)
            }
            guard unsafe lstat(path, &info) == 0 else { throw PlistStoreError(.io, systemReason(), path: path) }
        }
        if isPrivate {
            guard (info.st_mode & S_IFMT) != S_IFLNK else {
                throw PlistStoreError(
                    .refusedFile, "is a symbolic link; a private folder must be a real folder", path: path)
            }
            guard info.st_uid == geteuid() else {
                throw PlistStoreError(.refusedFile, "belongs to another user (uid \(info.st_uid))", path: path)
            }
        }
        if (info.st_mode & S_IFMT) == S_IFLNK, unsafe stat(path, &info) != 0 {
            throw PlistStoreError(.io, systemReason(), path: path)
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw PlistStoreError(.io, "exists and is not a folder", path: path)
        }
    }
}
