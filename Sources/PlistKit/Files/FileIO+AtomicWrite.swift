import PlistCore
package import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Replacing files atomically, and the temporary files that it takes.
extension FileIO {
    /// Replaces the file at `path` with `bytes`: they are written to a new file in the same
    /// folder, which has its final permissions from the start, flushed, then renamed over
    /// `path`, and the folder flushed once so that the rename survives a crash. If anything
    /// fails, the old file is untouched and the temporary file removed.
    ///
    /// The new file keeps the old file's permissions; where there is no old file it has
    /// `newFileMode` (for preferences, 0600), or by default what 0666 and the umask give. A
    /// symbolic link at `path` is followed, so the file it points to is replaced and the link
    /// kept; with `followsLink` false, it is replaced by the file, never written through.
    package static func writeAtomically(
        _ bytes: [UInt8], to path: String, newFileMode: FilePermissions? = nil, followsLink: Bool = true
    ) throws(PlistError) {
        try writeAtomically(to: path, newFileMode: newFileMode, followsLink: followsLink) { fd throws(PlistError) in
            try writeAll(bytes, to: fd)
        }
    }

    /// Replaces the file at `path` with what `produce` writes to the descriptor it is given, as
    /// `writeAtomically(_:to:)` does: if `produce` throws, the old file is untouched, the
    /// temporary file removed, and its error thrown. For writers that stream their output;
    /// the descriptor is open for reading too (`readBack`), for writers that look back.
    package static func writeAtomically(
        to path: String, newFileMode: FilePermissions? = nil, followsLink: Bool = true,
        _ produce: (FileDescriptor) throws(PlistError) -> Void
    ) throws(PlistError) {
        let target = followsLink ? try resolvingLink(path) : path
        let folder = target.lastIndex(of: "/").map { String(target[...$0]) } ?? ""
        let name = target.split(separator: "/").last.map(String.init) ?? target
        // The mode of the old file (not of a link that is replaced), or of a new one.
        let old = try? status(atPath: target, followsLink: followsLink)
        let mode = old.map { $0.kind == .symbolicLink ? newFileMode : $0.permissions } ?? newFileMode

        let temporary: Temporary
        do throws(Errno) {
            temporary = try Temporary(in: folder, for: name, mode: mode)
        } catch {
            throw PlistError(error)
        }
        var failure: PlistError?
        do throws(PlistError) {
            try produce(temporary.fd)
            try wrapping { () throws(Errno) in try sync(temporary.fd) }
            try wrapping { () throws(Errno) in try rename(temporary.path, to: target) }
        } catch {
            failure = error
            try? remove(temporary.path)
        }
        // Closing releases the lock: after the rename or the removal, so no other write removes the file.
        do throws(Errno) { try close(temporary.fd) } catch { failure = failure ?? PlistError(error) }
        if let failure { throw failure }
        // Best effort: the file is already replaced, and some file systems cannot flush a folder.
        try? syncFolder(folder)
    }

    /// Writes all of `bytes` to `fd`.
    /// - Throws: `.io` when writing fails.
    static func writeAll(_ bytes: [UInt8], to fd: FileDescriptor) throws(PlistError) {
        try wrapping { () throws(Errno) in try write(bytes, to: fd) }
    }

    /// The `PlistError` of `call`'s `Errno`.
    private static func wrapping(_ call: () throws(Errno) -> Void) throws(PlistError) {
        do throws(Errno) { try call() } catch { throw PlistError(error) }
    }

    /// A new temporary file beside the file it will replace, open for reading and writing,
    /// locked, and with its final permissions.
    ///
    /// It is `.NAME.SLOT.tmp`, in the first free slot from 0. A writer holds an exclusive
    /// `flock` on it from creating it to renaming it, so a file that can be locked belongs to
    /// no live writer: one left by a killed process is removed when a later write reaches its
    /// slot. Slot 0 is always tried first, so leftovers never outnumber the writers that once
    /// ran at the same time, and no write lists the folder (which in a folder of thousands of
    /// files cost more than converting a small file).
    struct Temporary {
        let path: String
        let fd: FileDescriptor

        /// Creates and locks the file; with `mode`, it is created with those permissions and
        /// given them again past the umask, so that the file has them before anything is written
        /// to it (and when it appears at its final name).
        init(in folder: String, for name: String, mode: FilePermissions?) throws(Errno) {
            var slot = 0
            var lastError = Errno.fileExists
            for _ in 0..<1_000 {
                let path = folder + ".\(name).\(slot).tmp"
                let fd: FileDescriptor
                do throws(Errno) {
                    fd = try open(
                        path, .readWrite, options: [.create, .exclusiveCreate],
                        permissions: mode ?? FilePermissions(rawValue: 0o666))
                } catch  where error == .fileExists {
                    // Taken: by a live writer (try the next slot) or abandoned (removed: try it again).
                    if !Self.removeIfAbandoned(path) { slot += 1 }
                    continue
                }
                // Another write may have found the file unlocked and removed it before the lock was taken.
                let locked = (try? lock(fd)) != nil && Self.names(fd, path)
                if locked {
                    do throws(Errno) {
                        if let mode, try status(of: fd).permissions != mode { try setPermissions(fd, mode) }
                    } catch {
                        try? remove(path)
                        try? close(fd)
                        throw error
                    }
                    (self.path, self.fd) = (path, fd)
                    return
                }
                try? close(fd)
                lastError = .fileExists
            }
            throw lastError
        }

        /// Removes the temporary file at `path` if its writer is gone (killed before it could
        /// rename or remove it), which is so when no process holds a lock on it. Returns whether
        /// the slot may be free now.
        private static func removeIfAbandoned(_ path: String) -> Bool {
            let fd: FileDescriptor
            do throws(Errno) {
                fd = try open(path, .readOnly, options: .noFollow)
            } catch {
                return error == .noSuchFileOrDirectory
            }
            defer { try? close(fd) }
            guard (try? lock(fd, wait: false)) == true, names(fd, path) else { return false }
            return (try? remove(path)) != nil
        }

        /// Whether `path` still names the file open as `fd`.
        private static func names(_ fd: FileDescriptor, _ path: String) -> Bool {
            guard let open = try? status(of: fd), let named = try? status(atPath: path, followsLink: false) else {
                return false
            }
            return open.isSameFile(as: named)
        }
    }

    /// The file a symbolic link at `path` points to (following chains of links, and naming the
    /// missing file a dangling link points to), or `path` itself when it is not a link; the
    /// walk ends early at a path for which `stop` is true.
    static func resolvingLink(
        _ path: String, stoppingAt stop: (String) -> Bool = { _ in false }
    ) throws(PlistError) -> String {
        var current = path
        for _ in 0..<40 {
            guard !stop(current), let info = try? status(atPath: current, followsLink: false),
                info.kind == .symbolicLink
            else {
                return current
            }
            current = try nextLink(current)
        }
        throw PlistError(Errno.tooManySymbolicLinkLevels)
    }

    /// The path that the symbolic link at `link` holds, made absolute or relative to the
    /// current folder as `link` is.
    private static func nextLink(_ link: String) throws(PlistError) -> String {
        let target: String
        do throws(Errno) { target = try linkTarget(link) } catch { throw PlistError(error) }
        let folder = link.lastIndex(of: "/").map { String(link[...$0]) } ?? ""
        return target.hasPrefix("/") ? target : folder + target
    }
}
