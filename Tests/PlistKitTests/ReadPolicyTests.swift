import Foundation
import PlistKit
import TestSupport
import Testing

/// One policy per value across the readers (docs/COMPATIBILITY.md, "What each writer does with
/// the hard values"): a cell of the table per test.
@Suite struct ReadPolicyTests {
    static func binaryWithUTF16String(_ units: [UInt16]) -> [UInt8] {
        // bplist00, one UTF-16 string object, an offset table of one entry, the trailer.
        var bytes = Array("bplist00".utf8) + [0x60 | UInt8(units.count)]
        for unit in units { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        let tableOffset = bytes.count
        bytes.append(8)
        bytes += [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0]
        bytes += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(tableOffset) >> (56 - 8 * UInt64($0))) }
        return bytes
    }

    /// A lone surrogate: refused, with its place, by every reader.
    @Test func loneSurrogatesAreRefusedWithTheirPlace() throws {
        #expect(try Plist(binary: Self.binaryWithUTF16String([0x41, 0x42])) == "AB")
        let binary = try #require(throws: PlistError.self) { try Plist(binary: Self.binaryWithUTF16String([0xD800])) }
        #expect(binary.code == .invalidUTF16 && binary.byteOffset != nil, "\(binary)")
        let json = try #require(throws: PlistError.self) { try Plist(json: Array(#"["\ud800"]"#.utf8)) }
        #expect(json.position == TextPosition(line: 1, column: 3), "\(json)")
        let xml = try #require(throws: PlistError.self) {
            try Plist(xml: Array("<plist><string>&#xD800;</string></plist>".utf8))
        }
        #expect(xml.position?.line == 1, "\(xml)")
        let openStep = try #require(throws: PlistError.self) { try Plist(openStep: Array(#"("\UD800")"#.utf8)) }
        #expect(openStep.code == .invalidUTF16 && openStep.position == TextPosition(line: 1, column: 3), "\(openStep)")
    }

    /// A repeated key: the later value wins, in every text format as in binary.
    @Test(arguments: [
        "<plist><dict><key>a</key><integer>1</integer><key>a</key><integer>2</integer></dict></plist>",
        #"{"a":1,"a":2}"#, "{a = <*I1>; a = <*I2>;}",
    ])
    func repeatedKeysKeepTheLaterValue(text: String) throws {
        #expect(try Plist(bytes: Array(text.utf8)) == ["a": 2])
    }

    @Test func repeatedKeysInAStringsFileKeepTheLaterValue() throws {
        #expect(try Plist(openStep: Array("\"a\" = \"1\";\n\"a\" = \"2\";\n".utf8)) == ["a": "2"])
    }

    /// Integers past 64 bits: refused with their place where the format has integers; JSON,
    /// which has one number type, reads the nearest real (as JavaScript does).
    @Test func integersPast64Bits() throws {
        let xml = try #require(throws: PlistError.self) {
            try Plist(xml: Array("<plist><integer>18446744073709551616</integer></plist>".utf8))
        }
        #expect(xml.code == .numberOutOfRange && xml.position != nil, "\(xml)")
        let gnustep = try #require(throws: PlistError.self) {
            try Plist(openStep: Array("(<*I18446744073709551616>)".utf8))
        }
        #expect(gnustep.position == TextPosition(line: 1, column: 5), "\(gnustep)")
        #expect(try Plist(json: Array("[18446744073709551616]".utf8)) == [.real(18_446_744_073_709_551_616)])
    }

    /// NUL in keys is kept by every format that writes it, and read back.
    @Test(arguments: ["xml", "binary", "gnustep", "json", "strings"])
    func nulInKeysRoundTrips(format: String) throws {
        let value: Plist = ["a\u{0}b": "\u{0}", "\u{0}": "x"]
        let bytes: [UInt8] =
            switch format {
            case "xml": try value.xmlBytes()
            case "binary": try value.binaryBytes()
            case "gnustep": try value.openStepBytes(options: .init(openStepValues: .gnustep))
            case "json": try value.jsonBytes()
            default: try value.stringsBytes()
            }
        #expect(try Plist(bytes: bytes) == value)
    }

    /// UIDs of 64 bits read back from every format that holds them.
    @Test func uidsOf64BitsRoundTrip() throws {
        let value: Plist = [.uid(UInt64.max), .uid(0)]
        for bytes in [
            try value.binaryBytes(), try value.xmlBytes(), try value.jsonBytes(),
            try value.openStepBytes(options: .init(openStepValues: .gnustep)),
        ] {
            #expect(try Plist(bytes: bytes) == value)
        }
        #expect(throws: PlistError.self) { try value.openStepBytes() }
        #expect(throws: PlistError.self) { try value.jsonBytes(options: .init(jsonValues: .strict)) }
    }
}
