import ArgumentParser
import PlistKit

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `plistconv print FILE...` (plutil's `-p`): shows property lists for people to read.
struct Print: ParsableCommand {
    static let configuration = CommandConfiguration.plistconvCommand(
        "print",
        abstract: "Print property lists in a form for people to read (plutil -p).",
        discussion: """
            Dictionaries show "key" => value with keys sorted, arrays N => value, data \
            {length = N, bytes = 0x...} (the first 16 and last 8 bytes when longer than 24), dates \
            in ISO 8601, numbers exactly. Not meant to be read back: convert for that.
            """
    )

    @Argument(help: "Files to print (- for standard input).")
    var files: [String]

    func run() throws {
        var failed = false
        for file in files {
            do throws(PlistError) {
                let document = try Terminal.read(file)
                try Terminal.writeOutput(HumanReadable.text(of: document.value))
            } catch {
                Terminal.report(error, file: Terminal.displayName(file, isOutput: false))
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
    }
}

/// The text `print` shows.
enum HumanReadable {
    /// `value` as plutil `-p` shows it, ending with a newline.
    static func text(of value: Plist) -> String {
        var text = ""
        append(value, indent: "", to: &text)
        text += "\n"
        return text
    }

    private static func append(_ value: Plist, indent: String, to text: inout String) {
        let inner = indent + "  "
        switch value {
        case .dictionary(let entries):
            text += "{\n"
            for key in entries.keys.sorted() {
                text += inner + quoted(key) + " => "
                append(entries[key]!, indent: inner, to: &text)
                text += "\n"
            }
            text += indent + "}"
        case .array(let elements):
            text += "[\n"
            for (index, element) in elements.enumerated() {
                text += inner + String(index) + " => "
                append(element, indent: inner, to: &text)
                text += "\n"
            }
            text += indent + "]"
        case .string(let string): text += quoted(string)
        case .data(let data): text += dataDescription([UInt8](data))
        case .uid(let uid): text += "<CF$UID \(uid)>"
        default: text += Scalar.text(of: value)
        }
    }

    /// A string in double quotes, with quotes, backslashes and control characters escaped.
    static func quoted(_ string: String) -> String { String.swiftLiteral(string) }

    /// `{length = N, bytes = 0x...}` as CoreFoundation describes data: every byte up to 24,
    /// else the first 16, ` ... ` and the last 8.
    static func dataDescription(_ bytes: [UInt8]) -> String {
        let shown = bytes.count <= 24 ? hex(bytes[...]) : hex(bytes.prefix(16)) + " ... " + hex(bytes.suffix(8))
        return "{length = \(bytes.count), bytes = 0x\(shown)}"
    }

    private static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// Scalars as text, the same in `print` and in `extract ... raw`.
enum Scalar {
    /// Integers and reals exactly (reals in the shortest form that reads back to the same
    /// number), Booleans `true`/`false`, dates in ISO 8601; strings as they are, data in base64.
    static func text(of value: Plist) -> String {
        switch value {
        case .string(let string): string
        case .integer(let integer): integer.description
        case .real(let real): real.description
        case .bool(let bool): bool ? "true" : "false"
        case .date: value.description
        case .data(let data): data.base64EncodedString()
        case .uid(let uid): String(uid)
        case .array(let elements): String(elements.count)
        case .dictionary(let entries): entries.keys.joined(separator: "\n")
        }
    }
}
