import PlistKit
import SystemPackage

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
        guard let info = try? FileIO.status(atPath: path, followsLink: false) else { return nil }
        self.init(info)
    }

    init(_ info: FileStatus) {
        device = info.device
        inode = info.inode
        seconds = info.modifiedSeconds
        nanoseconds = info.modifiedNanoseconds
        size = Int64(info.size)
    }
}

/// One domain's file, `<folder>/<domain>.plist`, with its lock file `<domain>.plist.lock`
/// beside it. Everything here runs on the caller's thread, and makes its system calls through
/// PlistKit's `FileIO`.
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
        let fd: FileDescriptor
        do throws(Errno) {
            fd = try FileIO.open(path, .readOnly, options: [.noFollow, .nonBlocking])
        } catch {
            if error == .noSuchFileOrDirectory { return ([:], nil) }
            if error == .tooManySymbolicLinkLevels { throw Self.refusedLink(path) }
            throw PlistStoreError(.io, "cannot read: \(error)", path: path)
        }
        defer { try? FileIO.close(fd) }
        let info: FileStatus
        do throws(Errno) {
            info = try FileIO.status(of: fd)
        } catch {
            throw PlistStoreError(.io, "cannot read: \(error)", path: path)
        }
        try Self.checkRegular(info, path)
        guard info.size <= Self.maxSize else {
            throw PlistStoreError(
                .refusedFile,
                "is \(info.size) bytes, more than the \(Self.maxSize >> 20) MiB a domain file may hold",
                path: path)
        }
        let bytes: Data
        do {
            bytes = try FileIO.contents(ofRegularFile: fd, size: info.size, limit: Self.maxSize)
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
        let fd: FileDescriptor
        do throws(Errno) {
            fd = try FileIO.open(
                lockPath, .readWrite, options: [.create, .noFollow, .nonBlocking], permissions: .ownerReadWrite)
        } catch {
            if error == .tooManySymbolicLinkLevels { throw Self.refusedLink(lockPath) }
            throw PlistStoreError(.io, "cannot open the lock file: \(error)", path: lockPath)
        }
        defer { try? FileIO.close(fd) }
        let info: FileStatus
        do throws(Errno) {
            info = try FileIO.status(of: fd)
        } catch {
            throw PlistStoreError(.io, "cannot lock: \(error)", path: lockPath)
        }
        try Self.checkRegular(info, lockPath)
        do throws(Errno) {
            try FileIO.lock(fd)
        } catch {
            throw PlistStoreError(.io, "cannot lock: \(error)", path: lockPath)
        }
        return try body()
    }

    /// Moves a damaged file aside to `<path>.corrupt-<UTC time>` and returns that path.
    func moveAside() -> String? {
        // `YYYYMMDDTHHMMSSZ`: the ISO 8601 time without its separators.
        let now = DateText.iso8601(seconds: Date.now.timeIntervalSinceReferenceDate.rounded(.down)) ?? ""
        let stamp = String(now.filter { $0 != "-" && $0 != ":" })
        var target = path + ".corrupt-" + stamp
        var suffix = 1
        while FileIdentity(path: target) != nil {
            suffix += 1
            target = path + ".corrupt-" + stamp + "-\(suffix)"
        }
        return (try? FileIO.rename(path, to: target)) != nil ? target : nil
    }

    /// Writes `entries` as a binary property list: temporary file (a new file's with mode
    /// 0600 from its creation), fsync, rename over the file (never through a link), one fsync
    /// of the folder (`FileIO.writeAtomically`).
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
            try FileIO.writeAtomically(bytes, to: path, newFileMode: [.ownerReadWrite], followsLink: false)
        } catch {
            throw PlistStoreError(.io, "cannot write: " + error.message, path: path)
        }
    }

    /// Removes the file (a domain removed as a whole), then syncs the folder.
    func remove() throws(PlistStoreError) {
        try checkReplaceable()
        do throws(Errno) {
            try FileIO.remove(path)
        } catch  where error != .noSuchFileOrDirectory {
            throw PlistStoreError(.io, "cannot remove: \(error)", path: path)
        } catch {}
        do throws(Errno) {
            try FileIO.syncFolder(folder)
        } catch {
            throw PlistStoreError(.io, "cannot sync the folder: \(error)", path: folder)
        }
    }

    /// Refuses to replace or remove what is at the path when it is a link or not a regular file.
    private func checkReplaceable() throws(PlistStoreError) {
        guard let info = try? FileIO.status(atPath: path, followsLink: false) else { return }
        if info.kind == .symbolicLink { throw Self.refusedLink(path) }
        try Self.checkRegular(info, path)
    }

    private static func refusedLink(_ path: String) -> PlistStoreError {
        PlistStoreError(
            .refusedFile, "is a symbolic link; preferences are never read or written through a link", path: path)
    }

    private static func checkRegular(_ info: FileStatus, _ path: String) throws(PlistStoreError) {
        let kind: String
        switch info.kind {
        case .regular: return
        case .folder: kind = "a folder"
        case .fifo: kind = "a FIFO"
        case .characterDevice: kind = "a character device"
        case .blockDevice: kind = "a block device"
        case .socket: kind = "a socket"
        case .symbolicLink, .other: kind = "a special file"
        }
        throw PlistStoreError(.refusedFile, "is \(kind), not a regular file", path: path)
    }
}

extension DomainFile {
    /// The names in `folder` (without `.` and `..`); empty when it cannot be listed.
    static func names(inFolder folder: String) -> [String] { FileIO.names(inFolder: folder) }

    /// Whether a regular file is at `path` (a link is not followed).
    static func isRegularFile(_ path: String) -> Bool {
        (try? FileIO.status(atPath: path, followsLink: false))?.kind == .regular
    }

    /// `mkdir -p` with mode 0700 for the folders it makes. With `isPrivate`, the last folder
    /// must also be a folder of this user and not a link (a folder in a shared place such as
    /// `/tmp`, where another user may have made it first).
    static func createFolders(_ path: String, isPrivate: Bool = false) throws(PlistStoreError) {
        func status(followsLink: Bool = false) throws(PlistStoreError) -> FileStatus {
            do throws(Errno) {
                return try FileIO.status(atPath: path, followsLink: followsLink)
            } catch {
                throw PlistStoreError(.io, error.description, path: path)
            }
        }
        var info: FileStatus
        if let existing = try? FileIO.status(atPath: path, followsLink: false) {
            info = existing
        } else {
            if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
                try createFolders(String(path[..<slash]))
            }
            do throws(Errno) {
                try FileIO.makeFolder(path, permissions: .ownerReadWriteExecute)
            } catch  where error != .fileExists {
                throw PlistStoreError(.io, error.description, path: path)
            } catch {}
            info = try status()
        }
        if isPrivate {
            guard info.kind != .symbolicLink else {
                throw PlistStoreError(
                    .refusedFile, "is a symbolic link; a private folder must be a real folder", path: path)
            }
            guard info.owner == geteuid() else {
                throw PlistStoreError(.refusedFile, "belongs to another user (uid \(info.owner))", path: path)
            }
        }
        if info.kind == .symbolicLink { info = try status(followsLink: true) }
        guard info.kind == .folder else {
            throw PlistStoreError(.io, "exists and is not a folder", path: path)
        }
    }
}
