public import SystemPackage

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Writing encoded bytes to files the way this package writes property lists.
public enum PlistFile {
    /// Writes `bytes` to the file at `path` atomically: a temporary file in the same folder is
    /// written completely and flushed, then renamed over the old file, which keeps its
    /// permissions (a symbolic link is followed, and its target replaced). A temporary file that
    /// a killed process left behind is removed by the next write to the same file. A character
    /// device or a FIFO (`/dev/null`, a named pipe) is written in place instead, never replaced,
    /// and a descriptor's name (`/dev/stdout`, `/dev/fd/3`) writes to that open descriptor.
    /// - Throws: `PlistError` with `.io` when the file cannot be written (a FIFO that no process
    ///   reads, a folder, a socket or a block device included); the old file is then intact.
    public static func write(_ bytes: [UInt8], to path: String) throws(PlistError) {
        try FileIO.writeOutput(bytes, to: path)
    }

    /// Writes all of `bytes` to the open file descriptor `fd` (standard output is 1).
    /// - Throws: `PlistError` with `.io` when writing fails.
    public static func write(_ bytes: [UInt8], toFileDescriptor fd: Int32) throws(PlistError) {
        try FileIO.writeAll(bytes, to: FileDescriptor(rawValue: fd))
    }
}

extension PlistFile {
    /// Writes `bytes` to the file at `url` atomically, as `write(_:to:)` with a path does.
    /// - Throws: `PlistError` with `.io` when `url` is not a file URL or the file cannot be written.
    public static func write(_ bytes: [UInt8], to url: URL) throws(PlistError) {
        try write(bytes, to: try FileIO.path(of: url))
    }

    /// Writes `bytes` to the file at `path` atomically, as `write(_:to:)` with a `String` path does.
    /// - Throws: `PlistError` with `.io` when the file cannot be written.
    public static func write(_ bytes: [UInt8], to path: FilePath) throws(PlistError) {
        try write(bytes, to: path.string)
    }
}
