import PlistKit

/// A file opened to read values at key paths (`extract`, `type`): a binary file lazily,
/// memory-mapped, so that only the value asked for (and the way to it) is read, however large
/// the file; any other input is read whole.
enum KeyPathSource {
    case lazy(BinaryPlistFile)
    case whole(Plist)

    /// Opens `path` (`-` is standard input): binary input lazily (a regular file mapped, a
    /// stream read into memory), any other whole. Its header, trailer and offset table are
    /// checked on opening, with the whole-file reader's errors; the value read, and the way to
    /// it, as that reader reads them (see `BinaryPlistFile`).
    static func open(_ path: String) throws(PlistError) -> KeyPathSource {
        let input = try PlistInput.opening(path)
        guard (try? input.format()) == .binary else { return .whole(try Terminal.read(input).value) }
        let options = Terminal.readOptionsWithoutValues(for: input)
        // A command makes a few lookups: no key index would pay for itself.
        return .lazy(try BinaryPlistFile(input: input, options: options, maxIndexedEntries: 0))
    }

    /// The value at `keyPath`, with everything inside it.
    func value(at keyPath: PlistKeyPath) throws(PlistError) -> Plist {
        switch self {
        case .lazy(let file): try file.value(at: keyPath)
        case .whole(let value): try value.value(at: keyPath)
        }
    }

    /// The type of the value at `keyPath`, without reading what a container holds.
    func type(at keyPath: PlistKeyPath) throws(PlistError) -> PlistType {
        switch self {
        case .lazy(let file): try file.type(at: keyPath)
        case .whole(let value): try value.value(at: keyPath).type
        }
    }

    /// `Scalar.text` of the value at `keyPath`: a dictionary's keys and an array's count are
    /// read without reading their values.
    func rawText(at keyPath: PlistKeyPath) throws(PlistError) -> String {
        switch self {
        case .lazy(let file):
            switch try file.type(at: keyPath) {
            case .dictionary: try file.keys(at: keyPath).joined(separator: "\n")
            case .array: String(try file.count(at: keyPath))
            default: Scalar.text(of: try file.value(at: keyPath))
            }
        case .whole(let value): Scalar.text(of: try value.value(at: keyPath))
        }
    }
}
