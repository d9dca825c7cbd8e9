public import SystemPackage

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension BinaryPlistFile {
    /// Opens the binary property-list file at `path`, memory-mapped: only the pages that
    /// lookups touch are read. See `init(bytes:options:maxIndexedEntries:)`. The file is checked
    /// before it is read, as `Plist.read(contentsOf:options:)` checks it: anything but a regular
    /// file (a pipe, a terminal) is read into memory within the read limits.
    /// - Throws: `PlistError` with `.io` when the file cannot be opened or mapped, else for a
    ///   header, trailer or offset-table entry that is not valid.
    public convenience init(
        contentsOf path: String, options: PlistReadOptions = .init(), maxIndexedEntries: Int = 1 << 22
    ) throws(PlistError) {
        try self.init(input: try PlistInput(path: path), options: options, maxIndexedEntries: maxIndexedEntries)
    }

    /// Opens the binary property list in `input`: a regular file memory-mapped, a stream read
    /// into memory within the read limits, after its first bytes are found to start a binary
    /// property list (else their error, without reading more).
    /// - Throws: as `init(contentsOf:options:maxIndexedEntries:)`.
    package convenience init(input: PlistInput, options: PlistReadOptions, maxIndexedEntries: Int = 1 << 22)
        throws(PlistError)
    {
        // What is not a binary property list of a version read here fails on its first bytes.
        let head = input.head
        if !BinaryMarker.startsReadableHeader(head) {
            try self.init(bytes: Data(head), options: options, maxIndexedEntries: maxIndexedEntries, releasePages: nil)
            return
        }
        let (bytes, isMapped) = try input.mapped(limit: PlistInput.limit(for: options))
        try self.init(
            bytes: bytes, options: options, maxIndexedEntries: maxIndexedEntries,
            releasePages: isMapped ? FileIO.releaser() : nil)
    }

    /// Opens the binary property-list file at `url`, memory-mapped (see `init(contentsOf:options:maxIndexedEntries:)`).
    /// - Throws: `PlistError` with `.io` when `url` is not a file URL or the file cannot be
    ///   opened, else for a header, trailer or offset table that is not valid.
    public convenience init(
        contentsOf url: URL, options: PlistReadOptions = .init(), maxIndexedEntries: Int = 1 << 22
    ) throws(PlistError) {
        try self.init(contentsOf: try FileIO.path(of: url), options: options, maxIndexedEntries: maxIndexedEntries)
    }

    /// Opens the binary property-list file at `path`, memory-mapped (see `init(contentsOf:options:maxIndexedEntries:)`).
    /// - Throws: as `init(contentsOf:options:maxIndexedEntries:)` with a `String` path.
    public convenience init(
        contentsOf path: FilePath, options: PlistReadOptions = .init(), maxIndexedEntries: Int = 1 << 22
    ) throws(PlistError) {
        try self.init(contentsOf: path.string, options: options, maxIndexedEntries: maxIndexedEntries)
    }

    /// Decodes the value at `path` (the whole file by default) as `type`, reading only that value.
    /// - Throws: `PlistError` when the path leads nowhere or the value does not read, else the
    ///   decoder's `DecodingError` (its coding path starts at `path`'s value).
    public func decode<T: Decodable>(
        _ type: T.Type, at path: PlistKeyPath = PlistKeyPath(components: []),
        using decoder: PlistDecoder = PlistDecoder()
    ) throws -> T {
        try decoder.decode(type, from: try value(at: path))
    }

    /// Decodes the value at the typed path `steps` as `type`, reading only that value.
    /// - Throws: as `decode(_:at:using:)` with a `PlistKeyPath`.
    public func decode<T: Decodable>(
        _ type: T.Type, at steps: [PlistPathStep], using decoder: PlistDecoder = PlistDecoder()
    ) throws -> T {
        try decoder.decode(type, from: try value(at: steps))
    }
}

extension BinaryPlistFile {
    /// Writes the value at `path` as an XML property list to the file at `output`, as it reads
    /// it (see `writeXML(at:options:to:)`): memory follows the value's depth and widest
    /// dictionary, not its size. The file is replaced atomically: when reading or writing fails
    /// part way, the old file is untouched and no partial file is left. Devices, FIFOs and
    /// descriptors' names are written in place, as `PlistFile.write(_:to:)` says.
    /// - Throws: `PlistError` from reading or writing, or `.io`.
    public func writeXML(
        at path: PlistKeyPath = PlistKeyPath(components: []), toFile output: String,
        options: PlistWriteOptions = .init()
    ) throws(PlistError) {
        try FileIO.writeOutput(to: output) { out throws(PlistError) in
            try writeXML(at: path, options: options) { chunk throws(PlistError) in
                try FileIO.writeAll(chunk, to: out.fd)
            }
        }
    }
}
