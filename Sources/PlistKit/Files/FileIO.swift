package import PlistCore
package import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The package's one platform layer for files: every system call that PlistKit, PlistStore and
/// plistconv make on a file, a folder or a pipe is made here (docs/ARCHITECTURE.md, "Files").
///
/// - This file: the single calls, on swift-system's `FileDescriptor` where it has them (open,
///   read, write, seek, close, pipe) and on the C library otherwise (`fstat`, `flock`,
///   `fsync`, `rename`, `mkdir`...). They throw swift-system's `Errno`, whose `description`
///   is the system's text for it; a call that fails with `EINTR` is made again, here only
///   (`retrying(_:)`). Every descriptor is opened close-on-exec.
/// - `FileIO+Reading.swift`: whole files and streams read into memory, files mapped.
/// - `FileIO+AtomicWrite.swift`: files replaced atomically, with their temporary files.
///
/// Callers turn an `Errno` into their own error: PlistKit into `PlistError` (`PlistError(_:)`),
/// PlistStore into `PlistStoreError` with the path.
package enum FileIO {
    /// The result of `call`, a system call that returns -1 and sets `errno` when it fails, made
    /// again while it fails with `EINTR`.
    /// - Throws: `errno` for any other failure.
    package static func retrying<Result: FixedWidthInteger>(_ call: () -> Result) throws(Errno) -> Result {
        while true {
            let result = call()
            if result != -1 { return result }
            let code = Errno(rawValue: errno)
            if code != .interrupted { throw code }
        }
    }

    /// The `Errno` that swift-system threw (its calls are declared with untyped `throws`).
    private static func systemCall<Result>(_ call: () throws -> Result) throws(Errno) -> Result {
        do {
            return try call()
        } catch {
            throw error as? Errno ?? .ioError
        }
    }

    // MARK: Opening and closing

    /// Opens `path` (close-on-exec always); `permissions` is the mode of a file it creates,
    /// before the umask.
    package static func open(
        _ path: String, _ access: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions = [],
        permissions: FilePermissions? = nil
    ) throws(Errno) -> FileDescriptor {
        try systemCall {
            // SAFETY: the C string lives for the duration of the closure, which `open` does not outlive.
            try unsafe path.withCString { name in
                try unsafe FileDescriptor.open(
                    name, access, options: options.union(.closeOnExec), permissions: permissions)
            }
        }
    }

    /// Closes `fd`. Not retried on `EINTR`: the descriptor is gone whatever `close` returns.
    package static func close(_ fd: FileDescriptor) throws(Errno) {
        try systemCall { try fd.close() }
    }

    /// A pipe, both ends close-on-exec: (read end, write end).
    package static func pipe() throws(Errno) -> (read: FileDescriptor, write: FileDescriptor) {
        let ends = try systemCall { try FileDescriptor.pipe() }
        for end in [ends.readEnd, ends.writeEnd] { _ = try retrying { fcntl(end.rawValue, F_SETFD, FD_CLOEXEC) } }
        return (ends.readEnd, ends.writeEnd)
    }

    /// Makes reads and writes on `fd` wait (`blocking`) or fail at once with `EAGAIN`.
    package static func setBlocking(_ fd: FileDescriptor, _ blocking: Bool) throws(Errno) {
        let flags = try retrying { fcntl(fd.rawValue, F_GETFL) }
        _ = try retrying { fcntl(fd.rawValue, F_SETFL, blocking ? flags & ~O_NONBLOCK : flags | O_NONBLOCK) }
    }

    /// Whether `fd` is a terminal.
    package static func isTerminal(_ fd: FileDescriptor) -> Bool { isatty(fd.rawValue) == 1 }

    /// Where the next read or write on `fd` starts.
    package static func offset(of fd: FileDescriptor) throws(Errno) -> Int64 {
        try systemCall { try fd.seek(offset: 0, from: .current) }
    }

    // MARK: Reading and writing

    /// Reads into `buffer` from where `fd` stands (at `offset` instead, when given); returns
    /// how many bytes were read, 0 at the end.
    package static func read(
        _ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer, at offset: Int? = nil
    ) throws(Errno) -> Int {
        try systemCall {
            if let offset {
                try unsafe fd.read(fromAbsoluteOffset: Int64(offset), into: buffer)
            } else {
                try unsafe fd.read(into: buffer)
            }
        }
    }

    /// Reads into `bytes` from index `start` on, as `read(_:into:at:)`; returns how many bytes
    /// were read, 0 at the end.
    package static func read(
        _ fd: FileDescriptor, into bytes: inout [UInt8], from start: Int = 0, at offset: Int? = nil
    ) throws(Errno) -> Int {
        // SAFETY: the buffer is the array's own storage from `start` on, for the duration of the call.
        let result = unsafe bytes.withUnsafeMutableBytes { buffer -> Result<Int, Errno> in
            do throws(Errno) {
                return .success(
                    try unsafe read(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[start...]), at: offset))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Writes all of `bytes` to `fd`, in as many `write` calls as it takes. (swift-system's
    /// `writeAll` is generic over the sequence, and its first use resolves that generic code at
    /// run time: a sixth of a small file's conversion.)
    package static func write(_ bytes: [UInt8], to fd: FileDescriptor) throws(Errno) {
        // SAFETY: the buffer is the array's own storage, for the duration of the closure.
        let result = unsafe bytes.withUnsafeBytes { buffer -> Errno? in
            guard let base = buffer.baseAddress else { return nil }
            var start = 0
            while start < buffer.count {
                do throws(Errno) {
                    start += try retrying { unsafe systemWrite(fd.rawValue, base + start, buffer.count - start) }
                } catch {
                    return error
                }
            }
            return nil
        }
        if let result { throw result }
    }

    /// Flushes `fd`'s file to the disk (`fsync`).
    package static func sync(_ fd: FileDescriptor) throws(Errno) {
        _ = try retrying { fsync(fd.rawValue) }
    }

    /// Flushes `folder` (`""` is the current folder), which makes a rename or a removal in it
    /// survive a crash. A file system that cannot flush a folder (`EINVAL`) is not an error.
    package static func syncFolder(_ folder: String) throws(Errno) {
        let fd = try open(folder.isEmpty ? "." : folder, .readOnly, options: .directory)
        defer { try? close(fd) }
        do throws(Errno) { try sync(fd) } catch  where error == .invalidArgument {}
    }

    /// Gives `fd`'s file the permissions `mode` (umask aside).
    package static func setPermissions(_ fd: FileDescriptor, _ permissions: FilePermissions) throws(Errno) {
        _ = try retrying { fchmod(fd.rawValue, permissions.rawValue) }
    }

    // MARK: Locks

    /// Takes the exclusive `flock` on `fd`'s file, waiting for it when `wait`; returns whether it
    /// was taken (false only when another descriptor holds it and `wait` is false).
    @discardableResult
    package static func lock(_ fd: FileDescriptor, wait: Bool = true) throws(Errno) -> Bool {
        do {
            _ = try retrying { flock(fd.rawValue, wait ? LOCK_EX : LOCK_EX | LOCK_NB) }
            return true
        } catch  where error == .wouldBlock && !wait {
            return false
        }
    }

    // MARK: Paths

    /// What is at `path`: a symbolic link is followed when `followsLink`, described otherwise.
    package static func status(atPath path: String, followsLink: Bool = true) throws(Errno) -> FileStatus {
        var info = stat()
        // SAFETY (here and in the calls below that take a path): the path is passed as a C
        // string that lives for the call, and `stat` fills the local `info`; none keeps either.
        _ = try retrying { unsafe followsLink ? stat(path, &info) : lstat(path, &info) }
        return FileStatus(info)
    }

    /// What `fd` is open on.
    package static func status(of fd: FileDescriptor) throws(Errno) -> FileStatus {
        var info = stat()
        // SAFETY: `fstat` fills the local `info` and keeps no pointer to it.
        _ = try retrying { unsafe fstat(fd.rawValue, &info) }
        return FileStatus(info)
    }

    /// Whether anything is at `path` (a link is followed; a dangling link is nothing).
    package static func exists(_ path: String) -> Bool {
        // SAFETY: the path is a C string that lives for the call.
        unsafe access(path, F_OK) == 0
    }

    /// Renames `source` to `target`, replacing what is there.
    package static func rename(_ source: String, to target: String) throws(Errno) {
        _ = try retrying { unsafe renameFile(source, target) }
    }

    /// Removes the file (or link) at `path`.
    package static func remove(_ path: String) throws(Errno) {
        _ = try retrying { unsafe unlink(path) }
    }

    /// Makes the folder `path` with `permissions` (before the umask).
    package static func makeFolder(_ path: String, permissions: FilePermissions) throws(Errno) {
        _ = try retrying { unsafe mkdir(path, permissions.rawValue) }
    }

    /// What the symbolic link at `path` holds.
    package static func linkTarget(_ path: String) throws(Errno) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        // SAFETY: `readlink` writes at most `buffer.count - 1` bytes into the array and returns
        // how many; only those are read.
        let length = try retrying { unsafe readlink(path, &buffer, buffer.count - 1) }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The current folder, or nil when it cannot be told (it was removed, or is too long).
    package static func currentFolder() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        // SAFETY: `getcwd` writes at most `buffer.count` bytes, NUL included, into the array.
        guard unsafe getcwd(&buffer, buffer.count) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    #if os(Linux) || os(Android)
    /// A non-blocking inotify descriptor that reports the `events` on the entries of `folder`;
    /// `read(_:into:at:)` gives them.
    package static func watch(folder: String, events: UInt32) throws(Errno) -> FileDescriptor {
        let fd = FileDescriptor(rawValue: try retrying { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) })
        do throws(Errno) {
            _ = try retrying { unsafe inotify_add_watch(fd.rawValue, folder, events) }
        } catch {
            try? close(fd)
            throw error
        }
        return fd
    }
    #endif

    /// The names in `folder` (without `.` and `..`); empty when it cannot be listed.
    package static func names(inFolder folder: String) -> [String] {
        // SAFETY: `dir` is used only between `opendir` and `closedir`, by this function alone;
        // `readdir`'s entry stays valid until the next `readdir` or `closedir` on `dir`,
        // and `d_name` is a NUL-terminated array inside it; its bytes are copied at once.
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
}

/// `rename(2)`, which `FileIO.rename(_:to:)` would otherwise hide.
private func renameFile(_ source: UnsafePointer<CChar>, _ target: UnsafePointer<CChar>) -> Int32 {
    unsafe rename(source, target)
}

/// What `stat` says of a file.
package struct FileStatus: Sendable {
    package enum Kind: Sendable {
        case regular, folder, symbolicLink, fifo, characterDevice, blockDevice, socket, other
    }

    package var kind: Kind
    /// The size in bytes (of a regular file).
    package var size: Int
    /// The permission bits, with set-user-ID, set-group-ID and sticky (`st_mode & 07777`).
    package var permissions: FilePermissions
    /// The user ID of its owner.
    package var owner: UInt32
    package var device: UInt64
    package var inode: UInt64
    /// The time of the last change of contents.
    package var modifiedSeconds: Int
    package var modifiedNanoseconds: Int

    init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .folder
        case S_IFLNK: kind = .symbolicLink
        case S_IFIFO: kind = .fifo
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        case S_IFSOCK: kind = .socket
        default: kind = .other
        }
        size = Int(info.st_size)
        permissions = FilePermissions(rawValue: info.st_mode & 0o7777)
        owner = UInt32(info.st_uid)
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        #if canImport(Darwin)
        modifiedSeconds = Int(info.st_mtimespec.tv_sec)
        modifiedNanoseconds = Int(info.st_mtimespec.tv_nsec)
        #else
        modifiedSeconds = Int(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
        #endif
    }

    /// Whether both describe the same file (device and inode).
    package func isSameFile(as other: FileStatus) -> Bool { device == other.device && inode == other.inode }
}

extension PlistError {
    /// `.io` with the system's text for `code`.
    package init(_ code: Errno) {
        self.init(.io(reason: code.description), at: 0)
    }
}

/// The C library's `write`, which `FileIO.write(_:to:)` hides inside `FileIO`.
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    unsafe write(fd, bytes, count)
}
