import PlistCore
import Synchronization
package import SystemPackage

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

/// Reading: whole files and streams into memory, parts of files, mappings.
extension FileIO {
    /// The contents of `fd`, an open regular file of `size` bytes by `fstat`, read into one
    /// buffer of that size, after the `head` bytes already read from it: the file as it was
    /// when it was opened. A file that shrank while it was read gives fewer bytes; one that
    /// grows is read to the size it had (a file that keeps growing, a log, would otherwise
    /// never end).
    ///
    /// Files are read, never memory-mapped, for a whole read: a mapped file that another
    /// process truncates while it is being parsed raises SIGBUS on the next page touched, which
    /// would kill the process, and a library may not install a signal handler to catch it.
    /// Read, a file that shrinks gives fewer bytes (which the reader reports as truncated).
    /// One buffer is filled in place, so the copy costs about a
    /// `memcpy` of the file (see docs/SECURITY.md).
    /// - Throws: `.inputTooLarge` past `limit`, `.io` when reading fails.
    package static func contents(
        ofRegularFile fd: FileDescriptor, size: Int, limit: Int, after head: [UInt8] = []
    ) throws(PlistError) -> Data {
        guard size <= limit else { throw PlistError(.inputTooLarge(limit: limit), at: 0) }
        // An array of exactly the size (`Data(count:)` reserves a quarter more), adopted by the `Data`.
        return Data(adopting: try fill(capacity: max(size, head.count), from: fd, after: head).bytes)
    }

    /// Up to `capacity` bytes: `head`, then what is read from `fd` until the array is full or
    /// the input ends; and whether it ended.
    /// - Throws: `.io` when reading fails.
    static func fill(
        capacity: Int, from fd: FileDescriptor, after head: [UInt8] = []
    ) throws(PlistError) -> (bytes: [UInt8], ended: Bool) {
        var failure: Errno?
        var ended = false
        // SAFETY: `head` (no longer than `capacity`) is copied into the start of the array's
        // uninitialized capacity, then each read writes at most the `buffer.count - filled`
        // bytes from `filled` on; `filled` bytes are initialized when the closure returns.
        let bytes = unsafe [UInt8](unsafeUninitializedCapacity: max(capacity, head.count)) { buffer, filled in
            filled = 0
            unsafe head.withUnsafeBufferPointer { unsafe _ = buffer.initialize(fromContentsOf: $0) }
            filled = head.count
            while filled < buffer.count {
                let rest = unsafe UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[filled...]))
                do throws(Errno) {
                    let count = try unsafe read(fd, into: rest)
                    if count == 0 {
                        ended = true
                        break
                    }
                    filled += count
                } catch {
                    failure = error
                    break
                }
            }
        }
        if let failure { throw PlistError(failure) }
        return (bytes, ended)
    }

    /// `size` bytes of the regular file open as `fd`, memory-mapped, for reading parts of it
    /// lazily (`BinaryPlistFile`): the system reads a page when it is first touched, and may
    /// drop it again, so memory follows what is read. The mapping is private and read-only; a
    /// file truncated by another process while mapped makes touching its lost pages fatal
    /// (SIGBUS, docs/SECURITY.md).
    /// - Throws: `.io` when the file cannot be mapped.
    static func mapped(_ fd: FileDescriptor, size: Int) throws(PlistError) -> Data {
        // SAFETY: a private read-only mapping of `size` bytes, which nothing writes through;
        // the `Data` owns it and unmaps exactly that range, once, when it is freed.
        guard let base = unsafe mmap(nil, size, PROT_READ, MAP_PRIVATE, fd.rawValue, 0), unsafe base != MAP_FAILED
        else {
            throw PlistError(Errno(rawValue: errno))
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
            guard let fd = try? FileIO.open("/proc/self/statm", .readOnly) else { return 0 }
            defer { try? FileIO.close(fd) }
            guard let text = try? FileIO.fill(capacity: 128, from: fd).bytes, !text.isEmpty else { return 0 }
            let fields = text.split(separator: UInt8(ascii: " "))
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
    package static func contents(
        ofDescriptor fd: FileDescriptor, limit: Int, after head: [UInt8] = []
    ) throws(PlistError) -> Data {
        guard head.count <= limit else { throw PlistError(.inputTooLarge(limit: limit), at: 0) }
        var data = Data(head)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count: Int
            do throws(Errno) {
                count = try read(fd, into: &chunk)
            } catch {
                throw PlistError(error)
            }
            if count == 0 { return data }
            guard count <= limit - data.count else { throw PlistError(.inputTooLarge(limit: limit), at: 0) }
            data.append(contentsOf: chunk[0..<count])
        }
    }

    /// Waits up to `milliseconds` for `fd` to have something to read (or to reach its end);
    /// returns at once when it has.
    static func waitForInput(_ fd: FileDescriptor, milliseconds: Int32) {
        var entry = pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)
        // SAFETY: `poll` reads and writes the one local entry, for the duration of the call.
        _ = try? retrying { unsafe poll(&entry, 1, milliseconds) }
    }

    /// Up to `count` bytes read from `fd`: fewer only at its end.
    /// - Throws: `.io` when reading fails.
    static func readUpTo(_ count: Int, from fd: FileDescriptor) throws(PlistError) -> [UInt8] {
        try fill(capacity: count, from: fd).bytes
    }

    /// Reads `count` bytes at `offset` of the file open at `fd` (fewer at its end), leaving
    /// where `fd` stands as it was.
    /// - Throws: `.io` when reading fails.
    static func readBack(_ fd: FileDescriptor, offset: Int, count: Int) throws(PlistError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got: Int
            do throws(Errno) {
                got = try read(fd, into: &bytes, from: done, at: offset + done)
            } catch {
                throw PlistError(error)
            }
            if got == 0 { break }
            done += got
        }
        return Array(bytes[..<done])
    }
}

extension FileIO {
    /// The path of a file URL.
    static func path(of url: URL) throws(PlistError) -> String {
        guard url.isFileURL else { throw PlistError(.io(reason: "\(url) is not a file URL"), at: 0) }
        return url.path(percentEncoded: false)
    }
}
