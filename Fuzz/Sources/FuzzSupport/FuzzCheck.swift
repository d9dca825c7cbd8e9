internal import CFuzzDriver
@_exported public import PlistKit

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The body of every fuzz target: read the input with one reader, and when the reader accepts
/// it, check that every writer writes the value and that reading the result gives it back.
/// Anything else (a crash, an error other than `PlistError`, a value that changes) stops the
/// fuzzer with a description.
public enum FuzzCheck {
    /// Read limits small enough to keep the fuzzer fast (a few thousand executions a second)
    /// while still reaching every limit check.
    public static let limits = PlistReadOptions(maxDepth: 512, maxObjects: 1 << 16, maxContentBytes: 1 << 22)

    /// What runs on every input, set once by `run` before libFuzzer starts.
    nonisolated(unsafe) static var body: ([UInt8]) -> Void = { _ in }

    /// Runs libFuzzer (with the options on the command line) on `read`, checking every value
    /// it accepts, and exits.
    public static func main(_ read: @escaping ([UInt8]) throws(PlistError) -> Plist) -> Never {
        run { bytes in
            let value: Plist
            do { value = try read(bytes) } catch { return }
            check(value)
        }
    }

    /// Runs libFuzzer (with the options on the command line) on `body`, and exits.
    public static func run(_ body: @escaping ([UInt8]) -> Void) -> Never {
        self.body = body
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(
            LLVMFuzzerRunDriver(&argc, &argv) { start, count in
                FuzzCheck.body(start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? [])
                return 0
            })
    }

    /// Checks that binary, XML and JSON write `value` and read it back.
    public static func check(_ value: Plist) {
        checkBinary(value)
        checkXML(value)
        checkJSON(value)
    }

    /// The binary format holds every value exactly.
    static func checkBinary(_ value: Plist) {
        let written: [UInt8]
        do { written = try value.binaryBytes() } catch { fail("the binary writer refused it: \(error)", value) }
        let reread: Plist
        do { reread = try Plist(binary: written) } catch { fail("our binary does not read back: \(error)", value) }
        guard reread == value else { fail("binary changed it to \(reread)", value) }
    }

    /// XML keeps what `XMLImage` says; the writer refuses, with a key path, exactly the values
    /// that would not read back (dates outside the years 1 to 9999, `CF$UID` dictionaries).
    static func checkXML(_ value: Plist) {
        let written: [UInt8]
        do {
            written = try value.xmlBytes(options: PlistWriteOptions(sortsKeys: false))
        } catch {
            // It may refuse only what would not read back, naming the key path.
            if XMLImage.canHold(value) || error.code != .unrepresentable || error.keyPath == nil {
                fail("the XML writer refused it: \(error)", value)
            }
            return
        }
        if !XMLImage.canHold(value) { fail("the XML writer wrote what cannot read back", value) }
        let reread: Plist
        do {
            reread = try Plist(xml: written)
        } catch {
            fail("our XML does not read back: \(error)", value)
        }
        guard XMLImage.matches(reread, value) else { fail("XML changed it to \(reread)", value) }
    }

    /// Typed JSON (the default) holds every value exactly. Its tags (`{"$date": ...}`) nest one
    /// level deeper than the value, so the reader reading it back allows twice the depth.
    static func checkJSON(_ value: Plist) {
        let written: [UInt8]
        do {
            written = try value.jsonBytes(options: PlistWriteOptions(sortsKeys: false))
        } catch {
            fail("the JSON writer refused it: \(error)", value)
        }
        let reread: Plist
        do {
            reread = try Plist(json: written, options: PlistReadOptions(maxDepth: 2 * limits.maxDepth + 1))
        } catch {
            fail("our JSON does not read back: \(error)", value)
        }
        guard equalUpToNaN(reread, value) else { fail("JSON changed it to \(reread)", value) }
    }

    /// Whether the values are equal, taking every NaN (of a real or a date) as equal to every
    /// other: JSON writes them all as `"nan"`, without sign or payload.
    public static func equalUpToNaN(_ a: Plist, _ b: Plist) -> Bool {
        switch (a, b) {
        case (.real(let x), .real(let y)) where x.isNaN || y.isNaN:
            return x.isNaN && y.isNaN
        case (.date(let x), .date(let y))
        where x.timeIntervalSinceReferenceDate.isNaN || y.timeIntervalSinceReferenceDate.isNaN:
            return x.timeIntervalSinceReferenceDate.isNaN && y.timeIntervalSinceReferenceDate.isNaN
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { equalUpToNaN($0, $1) }
        case (.dictionary(let x), .dictionary(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { equalUpToNaN(value, $0) } ?? false }
        default:
            return a == b
        }
    }

    public static func fail(_ problem: String, _ value: Plist) -> Never {
        fatalError("\(problem)\nvalue: \(value)")
    }
}
