import PlistCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// Reading whole files and replacing files atomically, with errors
/// that carry the system's reason. All pointer code of PlistKit lives here.
package enum FileIO {
    /// The contents of `fd`, an open regular file of `size` bytes by `fstat`, read into one
    /// buffer of that size, after the `head` bytes already read from it. A file that shrank
    /// while it was read gives fewer bytes; one that grew gives the longer contents, up to
    /// `limit` bytes: past it, an error.
    ///
    /// Files are read, never memory-mapped, for a whole read: a mapped file that another
    /// process truncates while it is being parsed raises SIGBUS on the next page touched, which
    /// would kill the process, and a library may not install a signal handler to catch it.
    /// Read, a file that shrinks gives fewer bytes (which the reader reports as truncated) and
    /// one that grows gives more. One buffer is filled in place, so the copy costs about a
    /// `memcpy` of the file (see docs/SECURITY.md).
    /// - Throws: `.inputTooLarge` past `limit`, `.io` when reading fails.
    package static func contents(
        ofRegularFile fd: Int32, size: Int, limit: Int, after head: [UInt8] = []
    ) throws(PlistError) -> Data {
        // An array of exactly the size (`Data(count:)` reserves a quarter more), adopted by the `Data`.
        var failure: PlistError?
        let capacity = max(min(size, limit), head.count)
        // SAFETY: `head` is copied into the start of the array's uninitialized capacity (which
        // holds it), then `read` writes at most `buffer.count - filled` bytes at `filled`;
        // `filled` bytes are initialized when it returns.
        var bytes = unsafe [UInt8](unsafeUninitializedCapacity: capacity) { buffer, filled in
            filled = 0
            unsafe head.withUnsafeBufferPointer { unsafe _ = buffer.initialize(fromContentsOf: $0) }
            filled = head.count
            while filled < buffer.count {
                let count = unsafe read(fd, buffer.baseAddress! + filled, buffer.count - filled)
                if count == 0 { break }
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = systemError()
                    break
                }
                filled += count
            }
        }
        if let failure { throw failure }
        if bytes.count == capacity {
            // The file may have grown while it was read.
            let more = try contents(ofDescriptor: fd, limit: limit - bytes.count)
            if !more.isEmpty { bytes += more }
        }
        return Data(adopting: bytes)
    }

    /// `size` bytes of the regular file open as `fd`, memory-mapped, for reading parts of it
    /// lazily (`BinaryPlistFile`): the system reads a page when it is first touched, and may
    /// drop it again, so memory follows what is read. The mapping is private and read-only; a
    /// file truncated by another process while mapped makes touching its lost pages fatal
    /// (SIGBUS, docs/SECURITY.md).
    /// - Throws: `.io` when the file cannot be mapped.
    static func mapped(_ fd: Int32, size: Int) throws(PlistError) -> Data {
        // SAFETY: a private read-only mapping of `size` bytes, unmapped by Data's deallocator.
        guard let base = unsafe mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), unsafe base != MAP_FAILED else {
            throw systemError()
        }
        return unsafe Data(
            bytesNoCopy: base, count: size,
            deallocator: .custom { pointer, count in
                _ = unsafe munmap(pointer, count)
            })
    }

    /// Drops the resident pages of `bytes`, a mapping made by `mapped(_:size:)`, when the
    /// process holds 16 MiB more of file pages than after it last dropped them (the system
    /// reads them from the file again when they are touched). Readers call it often, about
    /// every megabyte they read (`PageRelease`); what it costs then is one read of
    /// `/proc/self/statm`. The system may map far more than what is read (pages around each one
    /// read in, and large folios of the page cache), so what is resident is measured, not
    /// estimated. Only for such mappings (on other memory, `MADV_DONTNEED` would discard its
    /// contents). Linux only; elsewhere it does nothing.
    static func releaser() -> @Sendable (Data) -> Void {
        let pages = MappedPages()
        return { bytes in pages.release(bytes) }
    }

    /// The state of `releaser()`: resident file pages after the last drop.
    private final class MappedPages: Sendable {
        private let baseline: Atomic<Int>

        init() { baseline = Atomic(Self.residentFileBytes()) }

        func release(_ bytes: Data) {
            #if os(Linux)
            guard Self.residentFileBytes() - baseline.load(ordering: .relaxed) > 16 << 20 else { return }
            // SAFETY: the range is the mapping itself (read-only, private, never written), whose
            // pages the kernel reads back from the file on the next access; nothing is read or
            // written through the pointer here.
            unsafe bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return }
                _ = unsafe madvise(UnsafeMutableRawPointer(mutating: base), buffer.count, MADV_DONTNEED)
            }
            baseline.store(Self.residentFileBytes(), ordering: .relaxed)
            #endif
        }

        /// The process's resident file-backed (and shared) memory: the third field of
        /// `/proc/self/statm`, in pages; 0 where it cannot be read.
        private static func residentFileBytes() -> Int {
            #if os(Linux)
            let fd = unsafe open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return 0 }
            defer { close(fd) }
            var text = [UInt8](repeating: 0, count: 128)
            // SAFETY: `read` writes at most `text.count` bytes into the array's own storage.
            let count = unsafe text.withUnsafeMutableBytes { unsafe read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return 0 }
            let fields = text[..<count].split(separator: UInt8(ascii: " "))
            guard fields.count > 2, let pages = Int(String(decoding: fields[2], as: UTF8.self)) else { return 0 }
            return pages * sysconf(Int32(_SC_PAGESIZE))
            #else
            return 0
            #endif
        }
    }

    /// Everything readable from `fd` (a pipe, a terminal, the rest of a file) after the `head`
    /// bytes already read from it; more than `limit` bytes in all is an error.
    /// - Throws: `.inputTooLarge` past `limit`, `.io` when reading fails.
    static func contents(ofDescriptor fd: Int32, limit: Int, after head: [UInt8] = []) throws(PlistError) -> Data {
        guard head.count <= limit else { throw PlistError(.inputTooLarge(limit: limit), at: 0) }
        var data = Data(head)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            // SAFETY: `read` writes at most `chunk.count` bytes into the array's own storage.
            let count = unsafe chunk.withUnsafeMutableBytes { unsafe read(fd, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR { continue }
                throw systemError()
            }
            guard count <= limit - data.count else { throw PlistError(.inputTooLarge(limit: limit), at: 0) }
            data.append(contentsOf: chunk[0..<count])
        }
    }

    /// Up to `count` bytes read from `fd`: fewer only at its end.
    /// - Throws: `.io` when reading fails.
    static func readUpTo(_ count: Int, from fd: Int32) throws(PlistError) -> [UInt8] {
        var failure: PlistError?
        // SAFETY: `read` writes at most `buffer.count - filled` bytes at `filled` inside the
        // array's uninitialized capacity; `filled` bytes are initialized when it returns.
        let bytes = unsafe [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
            filled = 0
            while filled < count {
                let got = unsafe read(fd, buffer.baseAddress! + filled, count - filled)
                if got == 0 { break }
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = systemError()
                    break
                }
                filled += got
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Replaces the file at `path` with `bytes`: they are written to a new file in the same
    /// folder, flushed, given the old file's permissions, then renamed over `path`, and the
    /// folder flushed so that the rename survives a crash. If anything fails, the old file is
    /// untouched and the temporary file removed. A symbolic link at `path` is followed, so the
    /// file it points to is replaced and the link kept.
    ///
    /// The temporary file is `.NAME.SLOT.tmp`, in the first free slot from 0. A writer holds an
    /// exclusive `flock` on it from creating it to renaming it, so a file that can be locked
    /// belongs to no live writer: one left by a killed process is removed when a later write
    /// reaches its slot. Slot 0 is always tried first, so leftovers never outnumber the writers
    /// that once ran at the same time, and no write lists the folder (which in a folder of
    /// thousands of files cost more than converting a small file).
    ///
    /// With `ownerOnly`, a new file gets mode 0600 from the creation of the temporary file on
    /// (by default, what 0666 and the umask give). With `followsLink` false, a symbolic link at
    /// `path` is replaced by the file, never written through.
    package static func writeAtomically(
        _ bytes: [UInt8], to path: String, ownerOnly: Bool = false, followsLink: Bool = true
    ) throws(PlistError) {
        try writeAtomically(to: path, newFileMode: ownerOnly ? 0o600 : nil, followsLink: followsLink) { fd throws(PlistError) in
            if let error = writeAll(bytes, to: fd) { throw error }
        }
    }

    /// Replaces the file at `path` with what `produce` writes to the descriptor it is given, as
    /// `writeAtomically(_:to:)` does: if `produce` throws, the old file is untouched, the
    /// temporary file removed, and its error thrown. For writers that stream their output;
    /// the descriptor is open for reading too (`readBack`), for writers that look back.
    static func writeAtomically(
        to path: String, newFileMode: mode_t? = nil, followsLink: Bool = true, _ produce: (Int32) throws(PlistError) -> Void
    ) throws(PlistError) {
        let target = followsLink ? try resolvingLink(path) : path
        let folder = target.lastIndex(of: "/").map { String(target[...$0]) } ?? ""
        let name = target.split(separator: "/").last.map(String.init) ?? target
        var existing = stat()
        var oldMode: mode_t? = unsafe stat(target, &existing) == 0 ? existing.st_mode & 0o7777 : newFileMode
        if !followsLink, unsafe lstat(target, &existing) == 0, (existing.st_mode & S_IFMT) == S_IFLNK { oldMode = newFileMode }

        var temporary = ""
        var fd: Int32 = -1
        var slot = 0
        for _ in 0..<1_000 {
            temporary = folder + ".\(name).\(slot).tmp"
            fd = unsafe open(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, oldMode ?? 0o666)
            if fd < 0 {
                guard errno == EEXIST else { break }
                // Taken: by a live writer (try the next slot) or abandoned (removed: try it again).
                if !removeIfAbandoned(temporary) { slot += 1 }
                continue
            }
            // Another write may have found the file unlocked and removed it before the lock was taken.
            if flock(fd, LOCK_EX) == 0, isSameFile(fd, temporary) { break }
            close(fd)
            fd = -1
        }
        guard fd >= 0 else { throw systemError() }
        var failure: PlistError?
        if let oldMode, fchmod(fd, oldMode) != 0 { failure = systemError() }
        if failure == nil {
            do throws(PlistError) { try produce(fd) } catch { failure = error }
        }
        if failure == nil, fsync(fd) != 0 { failure = systemError() }
        if failure == nil, unsafe rename(temporary, target) != 0 { failure = systemError() }
        if failure != nil { unsafe unlink(temporary) }
        // Closing releases the lock: after the rename or the unlink, so no other write removes the file.
        if close(fd) != 0, failure == nil { failure = systemError() }
        if let failure { throw failure }
        syncFolder(folder)
    }

    /// Flushes the folder, which holds the rename. Best effort: the file is already replaced, and
    /// some file systems cannot flush a folder.
    private static func syncFolder(_ folder: String) {
        let fd = unsafe open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    /// Removes the temporary file at `path` if its writer is gone (killed before it could rename
    /// or remove it), which is so when no process holds a lock on it. Returns whether the slot
    /// may be free now.
    private static func removeIfAbandoned(_ path: String) -> Bool {
        let fd = unsafe open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return errno == ENOENT }
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0, isSameFile(fd, path) else { return false }
        return unsafe unlink(path) == 0
    }

    /// Whether `path` still names the file open as `fd`.
    private static func isSameFile(_ fd: Int32, _ path: String) -> Bool {
        var open = stat()
        var named = stat()
        guard unsafe fstat(fd, &open) == 0, unsafe lstat(path, &named) == 0 else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    /// Reads `count` bytes at `offset` of the file open at `fd` (fewer at its end).
    static func readBack(_ fd: Int32, offset: Int, count: Int) throws(PlistError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            // SAFETY: the pointer and count stay inside the array for the duration of the call.
            let got = unsafe bytes.withUnsafeMutableBytes { buffer in
                unsafe pread(fd, buffer.baseAddress! + done, count - done, off_t(offset + done))
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw systemError()
            }
            if got == 0 { break }
            done += got
        }
        return Array(bytes[..<done])
    }

    /// Writes all of `bytes` to `fd`; returns the error instead of throwing it.
    static func writeAll(_ bytes: [UInt8], to fd: Int32) -> PlistError? {
        var written = 0
        while written < bytes.count {
            // SAFETY: the pointer and count stay inside the array for the duration of the call.
            let count = unsafe bytes.withUnsafeBytes { buffer in
                unsafe write(fd, buffer.baseAddress! + written, buffer.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                return systemError()
            }
            written += count
        }
        return nil
    }

    /// The file a symbolic link at `path` points to (following chains of links, and naming the
    /// missing file a dangling link points to), or `path` itself when it is not a link.
    private static func resolvingLink(_ path: String) throws(PlistError) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard unsafe lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = unsafe readlink(current, &buffer, buffer.count - 1)
            guard length >= 0 else { throw systemError() }
            let target = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let folder = current.lastIndex(of: "/").map { String(current[...$0]) } ?? ""
            current = target.hasPrefix("/") ? target : folder + target
        }
        throw PlistError(.io(reason: "Too many levels of symbolic links"), at: 0)
    }

    static func systemError() -> PlistError {
        PlistError(.io(reason: unsafe String(cString: strerror(errno))), at: 0)
    }
}

extension FileIO {
    /// The path of a file URL.
    static func path(of url: URL) throws(PlistError) -> String {
        guard url.isFileURL else { throw PlistError(.io(reason: "\(url) is not a file URL"), at: 0) }
        return url.path(percentEncoded: false)
    }
}
