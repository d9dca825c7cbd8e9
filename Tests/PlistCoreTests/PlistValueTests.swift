import Foundation
import PlistCore
import Testing

/// The value model: literals, accessors, subscripts, equality, hashing and description.
@Suite struct PlistValueTests {
    let person: Plist = ["name": "James", "kids": ["Nicolas", "Juliana"], "age": 40, "height": 1.8, "ok": true]

    @Test func literalsAndAccessors() {
        #expect(person["name"]?.string == "James")
        #expect(person["age"]?.int == 40)
        #expect(person["height"]?.double == 1.8)
        #expect(person["ok"]?.bool == true)
        #expect(person["kids"]?[1]?.string == "Juliana")
        #expect(person["kids"]?[2] == nil)
        #expect(person["kids"]?.count == 2)
        #expect(person["missing"] == nil)
        #expect(person["age"]?.string == nil)
        #expect(person.dictionary?.keys.elementsEqual(["name", "kids", "age", "height", "ok"]) == true)
    }

    @Test func settingKeysKeepsOrder() {
        var value = person
        value["age"] = 41
        value["city"] = "Paris"
        value["kids"] = nil
        #expect(value.dictionary?.keys.elementsEqual(["name", "age", "height", "ok", "city"]) == true)
        #expect(value["age"] == 41)
    }

    @Test func integersCoverInt64AndUInt64() {
        let big = PlistInteger(UInt64.max)
        #expect(big.uint64 == .max)
        #expect(big.int64 == nil)
        #expect(PlistInteger(Int64.min).uint64 == nil)
        #expect(PlistInteger(Int64.min).int64 == .min)
        #expect(PlistInteger(exactly: UInt64.max) == big)
        #expect(PlistInteger(exactly: -1 as Int8) == PlistInteger(-1))
        #expect(PlistInteger(Int64(-1)) < PlistInteger(UInt64(0)))
        #expect(PlistInteger(UInt64(Int64.max) + 1) > PlistInteger(Int64.max))
        #expect(big.description == "18446744073709551615")
        #expect(PlistInteger(Int64.min).description == "-9223372036854775808")
        let literal: Plist = 18_446_744_073_709_551_615
        #expect(literal.uint64 == .max)
        #expect((-9_223_372_036_854_775_808 as Plist).int64 == .min)
        #expect(PlistInteger(UInt64(5)) == PlistInteger(Int64(5)))
    }

    @Test func equalityComparesExactContent() {
        #expect(Plist.real(.nan) == .real(.nan))
        #expect(Plist.real(0.0) != .real(-0.0))
        #expect(Plist.string("\u{E9}") != .string("e\u{301}"))
        #expect(Plist.integer(1) != .real(1))
        let forward: Plist = ["a": 1, "b": 2]
        let backward: Plist = ["b": 2, "a": 1]
        #expect(forward == backward)
        #expect(forward.hashValue == backward.hashValue)
        #expect(Set<Plist>([forward, backward, ["a": 1]]).count == 2)
    }

    @Test func description() {
        #expect(
            person.description
                == #"["name": "James", "kids": ["Nicolas", "Juliana"], "age": 40, "height": 1.8, "ok": true]"#)
        let misc: Plist = [
            .date(Date(timeIntervalSinceReferenceDate: 0.5)), .data(Data([0, 15, 255])), .uid(3), [:], [],
            .date(Date(timeIntervalSinceReferenceDate: -3_187_296_000)), "quote\"\n",
        ]
        #expect(
            misc.description
                == #"[2001-01-01T00:00:00.5Z, <000fff>, UID(3), [:], [], 1900-01-01T00:00:00Z, "quote\"\n"]"#)
        #expect(Plist.data(Data(count: 40)).description == "<" + String(repeating: "00", count: 32) + "… (40 bytes)>")
        #expect(Plist.date(Date(timeIntervalSinceReferenceDate: .nan)).description == "Date(nan)")
    }
}

/// Format detection from the first bytes.
@Suite struct FormatDetectionTests {
    @Test(
        arguments: [
            ("bplist00", PlistFormat.binary), ("bplist", .binary), ("<?xml version=\"1.0\"?>", .xml),
            ("\u{FEFF}  \n<?xml", .xml), ("<!DOCTYPE plist>", .xml), ("<plist version=\"1.0\">", .xml),
            ("<string>x</string>", .xml), ("<dict/>", .xml),
            ("<true/>", .xml), ("<data>", .xml), ("<dad>", .openStep), ("<deadbeef>", .openStep),
            ("{ a = b; }", .openStep), ("(1, 2)", .openStep), ("\"key\" = \"value\";", .openStep),
            ("/* comment */ { }", .openStep), ("<0fbd>", .openStep),
        ] as [(String, PlistFormat)])
    func detectsUTF8(text: String, format: PlistFormat) {
        #expect(PlistFormat.detect(Array(text.utf8)) == format)
    }

    @Test func detectsUTF16AndUTF32() {
        let xml = "<?xml version=\"1.0\"?>"
        let utf16LE: [UInt8] = [0xFF, 0xFE] + xml.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let utf16BE: [UInt8] = [0xFE, 0xFF] + xml.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let utf32BE: [UInt8] =
            [0, 0, 0xFE, 0xFF] + xml.unicodeScalars.flatMap { [0, 0, 0, UInt8($0.value)] as [UInt8] }
        let utf16NoBOM: [UInt8] = "{ a = b; }".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(PlistFormat.detect(utf16LE) == .xml)
        #expect(PlistFormat.detect(utf16BE) == .xml)
        #expect(PlistFormat.detect(utf32BE) == .xml)
        #expect(PlistFormat.detect(utf16NoBOM) == .openStep)
    }

    @Test(
        arguments: [[], [0x7F], [0x08] + Array("bplist00".utf8), [0x00, 0x01, 0x00, 0x02]] as [[UInt8]])
    func recognizesNothingInJunk(bytes: [UInt8]) {
        #expect(PlistFormat.detect(bytes) == nil)
    }

    /// White space alone is an empty `.strings` file, as CoreFoundation reads it.
    @Test func whiteSpaceAloneIsOpenStep() {
        #expect(PlistFormat.detect([0x20, 0x0A]) == .openStep)
        #expect(PlistFormat.detect([0x0D, 0x0A, 0x09]) == .openStep)
    }
}
