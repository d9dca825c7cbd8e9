internal import CFuzzDriver
@_exported public import PlistKit

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

    /// The reader under test, set once by `main` before libFuzzer starts.
    nonisolated(unsafe) static var reader: ([UInt8]) throws(PlistError) -> Plist = { _ throws(PlistError) in
        throw PlistError(.emptyInput, at: 0)
    }

    /// Runs libFuzzer (with the options on the command line) on `read`, and exits.
    public static func main(_ read: @escaping ([UInt8]) throws(PlistError) -> Plist) -> Never {
        reader = read
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { start, count in FuzzCheck.check(start, count) })
    }

    /// Reads the `count` bytes at `start` and checks the value; returns 0, as libFuzzer expects.
    static func check(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
        let value: Plist
        do { value = try reader(bytes) } catch { return 0 }
        checkBinary(value)
        checkXML(value)
        return 0
    }

    /// The binary format holds every value exactly.
    static func checkBinary(_ value: Plist) {
        let written: [UInt8]
        do { written = try value.binaryBytes() } catch { fail("the binary writer refused it: \(error)", value) }
        let reread: Plist
        do { reread = try Plist(binary: written) } catch { fail("our binary does not read back: \(error)", value) }
        guard reread == value else { fail("binary changed it to \(reread)", value) }
    }

    /// XML keeps what CoreFoundation's XML keeps (see `XMLImage`); a value with text XML cannot
    /// hold, or a date outside the years 1 to 9999, may make the written document unreadable.
    static func checkXML(_ value: Plist) {
        let written: [UInt8]
        do {
            written = try value.xmlBytes(options: PlistWriteOptions(sortsKeys: false))
        } catch {
            fail("the XML writer refused it: \(error)", value)
        }
        let reread: Plist
        do {
            reread = try Plist(xml: written)
        } catch {
            if XMLImage.canHold(value) { fail("our XML does not read back: \(error)", value) }
            return
        }
        guard XMLImage.matches(reread, value) else { fail("XML changed it to \(reread)", value) }
    }

    /// Typed JSON holds every value exactly.
    public static func checkJSON(_ value: Plist) {
        let written: [UInt8]
        do { written = try value.jsonBytes() } catch { fail("the JSON writer refused it: \(error)", value) }
        let reread: Plist
        do { reread = try Plist(json: written) } catch { fail("our JSON does not read back: \(error)", value) }
        guard reread == value else { fail("JSON changed it to \(reread)", value) }
    }

    static func fail(_ problem: String, _ value: Plist) -> Never {
        fatalError("\(problem)\nvalue: \(value)")
    }
}
