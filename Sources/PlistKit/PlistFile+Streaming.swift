import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension PlistFile {
    /// Converts the XML property list at `input` into a binary property list at `output`,
    /// writing each object as soon as it is read: memory follows the document's depth and its
    /// open containers, not its size (see `BinaryPlistStreamWriter`). The result reads as the
    /// value `Plist(xml:options:)` reads, and the errors are its errors, with line and column.
    /// A document that only the in-memory reader reads (UTF-16 or UTF-32 text, a NUL byte, a
    /// reference to a character XML 1.0 forbids, which this package's XML writer writes) is
    /// read in memory, for the same value or error. `output` is replaced atomically: when
    /// reading or writing fails part way, the old file is untouched and no partial file is left
    /// (devices, FIFOs and descriptors' names are written in place, as `PlistFile.write(_:to:)`
    /// says).
    /// - Throws: `PlistError` from reading or writing, or `.io`.
    public static func convertXMLToBinary(
        at input: String, toFile output: String, readOptions: PlistReadOptions = .init(),
        writeOptions: PlistWriteOptions = .init()
    ) throws(PlistError) {
        let source = try PlistInput(path: input)
        guard try canStreamXML(source) else {
            let bytes = try source.contents(limit: PlistInput.limit(for: readOptions))
            let value = try Plist(xml: bytes.span, options: readOptions)
            return try FileIO.writeOutput(try value.binaryBytes(options: writeOptions), to: output)
        }
        try convertXMLToBinary(source, toFile: output, readOptions: readOptions, writeOptions: writeOptions)
    }

    /// Converts the XML property list `input` into a binary one at `output`, replaced
    /// atomically, streaming it whatever it holds (`canStreamXML` says which read as in memory).
    package static func convertXMLToBinary(
        _ input: PlistInput, toFile output: String, readOptions: PlistReadOptions, writeOptions: PlistWriteOptions
    ) throws(PlistError) {
        try FileIO.writeOutput(to: output) { out throws(PlistError) in
            try convertXMLToBinary(
                input, toFileDescriptor: out.fd.rawValue, readable: out.canReadBack, readOptions: readOptions,
                writeOptions: writeOptions)
        }
    }

    /// Whether `input`, a regular file whose first bytes say XML (or that is empty), streams to
    /// the in-memory reader's verdict: UTF-8, without what `XMLStreamScreen` stops. It reads
    /// the whole file once for that.
    /// - Throws: `.io` when reading fails.
    package static func canStreamXML(_ input: PlistInput) throws(PlistError) -> Bool {
        let head = input.head
        guard case .regularFile = input.kind, (try? input.format()) ?? .xml == .xml,
            UnicodeText.wideEncoding(of: head.span) == nil
        else { return false }
        var screen = XMLStreamScreen()
        try input.scanning { chunk in screen.scan(chunk) }
        return screen.admits
    }

    /// Converts the XML property list `input` into a binary one written to `fd` as it goes; see
    /// `convertXMLToBinary(at:toFile:readOptions:writeOptions:)`, but a document is streamed
    /// whatever it holds (`canStreamXML` says which read as in memory). An error can come after
    /// some bytes were written. When `fd` is `readable` (a file open for reading and writing,
    /// empty at the start), the writer reads dictionary keys back from it instead of keeping them.
    package static func convertXMLToBinary(
        _ input: PlistInput, toFileDescriptor fd: Int32, readable: Bool, readOptions: PlistReadOptions,
        writeOptions: PlistWriteOptions
    ) throws(PlistError) {
        let fd = FileDescriptor(rawValue: fd)
        let write = { (chunk: [UInt8]) throws(PlistError) in try FileIO.writeAll(chunk, to: fd) }
        let reread = { (offset: Int, count: Int) throws(PlistError) -> [UInt8] in
            try FileIO.readBack(fd, offset: offset, count: count)
        }
        let writer = BinaryPlistStreamWriter(options: writeOptions, write: write, reread: readable ? reread : nil)
        try input.readingChunks { read throws(PlistError) in
            try writer.convertXML(options: readOptions, reading: read)
        }
    }
}
