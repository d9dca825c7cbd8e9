extension PlistFile {
    /// Converts the XML property list at `input` into a binary property list at `output`,
    /// writing each object as soon as it is read: memory follows the document's depth and its
    /// open containers, not its size (see `BinaryPlistStreamWriter`). The result reads as the
    /// value `Plist(xml:options:)` reads, and the errors are its errors, with line and column.
    /// The input must be UTF-8. `output` is replaced atomically: when reading or writing fails
    /// part way, the old file is untouched and no partial file is left.
    /// - Throws: `PlistError` from reading or writing, or `.io`.
    public static func convertXMLToBinary(
        at input: String, toFile output: String, readOptions: PlistReadOptions = .init(),
        writeOptions: PlistWriteOptions = .init()
    ) throws(PlistError) {
        try FileIO.writeAtomically(to: output) { fd throws(PlistError) in
            try convertXMLToBinary(
                at: input, toFileDescriptor: fd, readable: true, readOptions: readOptions, writeOptions: writeOptions)
        }
    }

    /// Converts the XML property list at `input` (`-` for standard input) into a binary one
    /// written to `fd` as it goes; see `convertXMLToBinary(at:toFile:readOptions:writeOptions:)`.
    /// An error can come after some bytes were written. When `fd` is `readable` (a file open
    /// for reading and writing, empty at the start), the writer reads dictionary keys back
    /// from it instead of keeping them.
    package static func convertXMLToBinary(
        at input: String, toFileDescriptor fd: Int32, readable: Bool, readOptions: PlistReadOptions,
        writeOptions: PlistWriteOptions
    ) throws(PlistError) {
        let write = { (chunk: [UInt8]) throws(PlistError) in
            if let error = FileIO.writeAll(chunk, to: fd) { throw error }
        }
        let reread = { (offset: Int, count: Int) throws(PlistError) -> [UInt8] in
            try FileIO.readBack(fd, offset: offset, count: count)
        }
        let writer = BinaryPlistStreamWriter(options: writeOptions, write: write, reread: readable ? reread : nil)
        try FileIO.readingChunks(ofFile: input) { read throws(PlistError) in
            try writer.convertXML(options: readOptions, reading: read)
        }
    }
}
