import FuzzSupport

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

// Seeds: binary xml openstep strings json samples

// PlistDecoder on any bytes in any format, into a few model types. Whatever decodes must encode
// (binary and XML), decode back, and then encode to the same property list: exactly through
// binary, after one trip through XML (which keeps whole seconds of dates).

struct Scalars: Codable {
    var int: Int
    var int8: Int8
    var int16: Int16
    var int32: Int32
    var int64: Int64
    var uint: UInt
    var uint8: UInt8
    var uint16: UInt16
    var uint32: UInt32
    var uint64: UInt64
    var double: Double
    var float: Float
    var bool: Bool
    var string: String
    var date: Date
    var data: Data
}

enum Kind: String, Codable {
    case file, folder, link
}

enum Shape: Codable {
    case circle(radius: Double)
    case rectangle(width: Int32, height: Int32)
    case named(String, sides: UInt8?)
    case none
}

struct Child: Codable {
    var id: UInt16
    var label: String?
    var values: [Double]?
    var shape: Shape?
}

struct Document: Codable {
    var name: String
    var kind: Kind
    var created: Date?
    var checksum: Data?
    var homepage: URL?
    var scalars: Scalars?
    var tags: [String]
    var counts: [String: Int64]
    var children: [Child]
    var nested: [String: [Child?]]?
    var shapes: [Shape]?
    var matrix: [[Int8]]?
}

/// Whether the coders' XML rules and CoreFoundation's give `value` the same bytes: no date
/// before 1582-10-15 (the coders' Julian calendar) and no -0.0 (the coders keep its sign).
func writesXMLAlike(_ value: Plist) -> Bool {
    switch value {
    case .date(let date): date.timeIntervalSinceReferenceDate >= -13_197_600_000
    case .real(let real): !(real == 0 && real.sign == .minus)
    case .array(let elements): elements.allSatisfy(writesXMLAlike)
    case .dictionary(let entries): entries.values.allSatisfy(writesXMLAlike)
    default: true
    }
}

/// Decodes `type` from `value` and checks the property; returns whether it decoded.
func check<T: Codable>(_ type: T.Type, from value: Plist, decoder: PlistDecoder) {
    guard let decoded = try? decoder.decode(type, from: value) else { return }
    let encoder = PlistEncoder()
    let tree: Plist
    do { tree = try encoder.encodeToPlist(decoded) } catch {
        FuzzCheck.fail("\(T.self) does not encode: \(error)", value)
    }
    // Binary and XML are written from the encoder's flat form: exactly the tree writers' bytes,
    // except where XML follows Foundation's coders and the tree writer CoreFoundation (dates
    // before the Gregorian reform, -0.0: docs/COMPATIBILITY.md, "Dates").
    for format in [PlistFormat.binary, .xml] where format == .binary || writesXMLAlike(tree) {
        encoder.outputFormat = format
        let direct = Result { try encoder.encodeToBytes(decoded) }
        let throughTree = Result { try tree.bytes(format: format) }
        guard case .success(let x) = direct, case .success(let y) = throughTree, x == y else {
            if case .failure = direct, case .failure = throughTree { continue }
            FuzzCheck.fail("\(T.self) encodes to other \(format.name) bytes than its tree \(tree)", value)
        }
    }
    // Binary holds every value exactly: the same tree after one trip.
    encoder.outputFormat = .binary
    let again = trip(decoded, encoder, decoder, value)
    guard again == tree else { FuzzCheck.fail("\(T.self) changed through binary: \(tree) became \(again)", value) }
    // XML keeps whole seconds of dates and makes -0.0 0.0: the tree settles after one trip.
    guard XMLImage.canHold(tree) else { return }
    encoder.outputFormat = .xml
    let once = trip(decoded, encoder, decoder, value)
    guard let onceDecoded = try? decoder.decode(type, from: once) else {
        FuzzCheck.fail("\(T.self) does not decode from its XML tree \(once)", value)
    }
    let twice = trip(onceDecoded, encoder, decoder, value)
    guard twice == once else { FuzzCheck.fail("\(T.self) does not settle in XML: \(once) became \(twice)", value) }
}

/// Binary files are decoded straight from their bytes, object by object, and XML documents from
/// the scanner's table: that must give the same model as the reference, or fail as it does. The
/// reference for binary is decoding the tree; for XML it is the same decoder reading the document
/// through libxml2 (`throughLibXML2`), whose tree it decodes by the same rules (Foundation's
/// coders' dates, no numbers from strings), which `Plist(bytes:)` does not follow. (A binary file
/// the reader refuses may still decode when the model never asks for its bad objects.)
func checkDirect<T: Codable>(_ type: T.Type, bytes: Data, value: Plist, isXML: Bool, decoder: PlistDecoder) {
    let direct = Result { try decoder.decode(type, from: bytes) }
    let reference = Result {
        isXML ? try decoder.decode(type, from: throughLibXML2(bytes)) : try decoder.decode(type, from: value)
    }
    switch (direct, reference) {
    case (.success(let a), .success(let b)):
        let encoder = PlistEncoder()
        let (x, y) = (try? encoder.encodeToPlist(a), try? encoder.encodeToPlist(b))
        guard let x, let y, FuzzCheck.equalUpToNaN(x, y) else {
            FuzzCheck.fail(
                "\(T.self) decodes from the bytes as \(String(describing: x)), by the reference as \(String(describing: y))",
                value)
        }
    case (.failure, .failure):
        return
    case (.success(let a), .failure(let error)):
        FuzzCheck.fail("\(T.self) decodes from the bytes as \(a) but not by the reference: \(error)", value)
    case (.failure(let error), .success(let b)):
        FuzzCheck.fail("\(T.self) decodes by the reference as \(b) but not from the bytes: \(error)", value)
    }
}

/// The XML document with a processing instruction after it, which libxml2 reads and the
/// scanner leaves to libxml2: the decoder then reads it through the tree.
func throughLibXML2(_ bytes: Data) -> Data {
    bytes + Data("<?fuzz?>".utf8)
}

/// Decodes from any property list that reads, and only from those.
struct Anything: Decodable {
    init(from decoder: any Decoder) {}
}

/// XML documents are decoded from the scanner's table when it reads them, else through the
/// libxml2 tree: either way a document decodes exactly when libxml2 reads it (the scanner never
/// accepts what libxml2 refuses).
func checkXMLReads(_ bytes: Data, decoder: PlistDecoder) {
    let decodes = (try? decoder.decode(Anything.self, from: bytes)) != nil
    let readerAccepts = (try? decoder.decode(Anything.self, from: throughLibXML2(bytes))) != nil
    guard decodes == readerAccepts else {
        let text = String(decoding: bytes.prefix(2000), as: UTF8.self)
        FuzzCheck.fail(
            "the XML decodes: \(decodes), libxml2 reads it: \(readerAccepts), for \(text.debugDescription)",
            .string(text))
    }
}

/// The tree of `value` after encoding it with `encoder` and decoding the bytes.
func trip<T: Codable>(_ value: T, _ encoder: PlistEncoder, _ decoder: PlistDecoder, _ input: Plist) -> Plist {
    let bytes: Data
    do { bytes = try encoder.encode(value) } catch { FuzzCheck.fail("\(T.self) does not encode: \(error)", input) }
    let decoded: T
    do {
        decoded = try decoder.decode(T.self, from: bytes)
    } catch {
        FuzzCheck.fail("\(T.self) does not decode from its \(encoder.outputFormat): \(error)", input)
    }
    do { return try encoder.encodeToPlist(decoded) } catch {
        FuzzCheck.fail("\(T.self) does not encode: \(error)", input)
    }
}

/// One value of each type, to seed the corpus (`--write-seeds=FOLDER` writes it in every format).
func samples() throws -> [(name: String, tree: Plist)] {
    let encoder = PlistEncoder()
    let scalars = Scalars(
        int: -1, int8: -128, int16: 32767, int32: -5, int64: .min, uint: 7, uint8: 255, uint16: 1, uint32: 70000,
        uint64: .max, double: 0.1, float: 1.5, bool: true, string: "héllo",
        date: Date(timeIntervalSinceReferenceDate: 12.5),
        data: Data([0, 1, 2, 255]))
    let child = Child(id: 3, label: "c", values: [1, -0.5], shape: .rectangle(width: 2, height: 3))
    let document = Document(
        name: "doc", kind: .folder, created: Date(timeIntervalSinceReferenceDate: 0), checksum: Data([9, 9]),
        homepage: URL(string: "https://example.com/a?b=c"), scalars: scalars, tags: ["a", "b"], counts: ["x": 1],
        children: [child, Child(id: 4, label: nil, values: nil, shape: .named("hex", sides: 6))],
        nested: ["k": [child, nil]], shapes: [.circle(radius: 2), .none], matrix: [[1, 2], [-3]])
    return [
        ("document", try encoder.encodeToPlist(document)),
        ("scalars", try encoder.encodeToPlist(scalars)),
        ("children", try encoder.encodeToPlist([child, child])),
        ("shapes", try encoder.encodeToPlist(["s": Shape.circle(radius: 1)])),
    ]
}

if let seeds = CommandLine.arguments.first(where: { $0.hasPrefix("--write-seeds=") })?.dropFirst(14) {
    for (name, tree) in try samples() {
        let forms: [(String, [UInt8])] = [
            ("binary", try tree.binaryBytes()), ("xml", try tree.xmlBytes()),
            ("openstep", try tree.openStepBytes(options: .init(openStepValues: .gnustep))),
            ("json", try tree.jsonBytes()),
        ]
        for (format, bytes) in forms {
            try Data(bytes).write(to: URL(fileURLWithPath: "\(seeds)/sample-\(name).\(format)"))
        }
    }
    exit(0)
}

let decoder = PlistDecoder()
decoder.readOptions = FuzzCheck.limits
decoder.allowedFormats = Set(PlistFormat.allCases)
FuzzCheck.run { bytes in
    // The bytes API first (format detection and the reader's errors), then every type.
    _ = try? decoder.decode(Document.self, from: Data(bytes))
    let isXML = (try? Plist.format(of: bytes.span)) == .xml
    let read = try? Plist(bytes: bytes, options: FuzzCheck.limits)
    // The scanner reads UTF-8 only, and the instruction appended is UTF-8: a UTF-16 or UTF-32
    // document (a NUL or a byte-order mark in its first bytes) goes through libxml2 either way.
    let isUTF8 =
        !bytes.prefix(4).contains(0) && !bytes.starts(with: [0xFE, 0xFF]) && !bytes.starts(with: [0xFF, 0xFE])
    if isXML, isUTF8 { checkXMLReads(Data(bytes), decoder: decoder) }
    guard let value = read else { return }
    if bytes.starts(with: "bplist".utf8) || isXML {
        let data = Data(bytes)
        checkDirect(Document.self, bytes: data, value: value, isXML: isXML, decoder: decoder)
        checkDirect(Scalars.self, bytes: data, value: value, isXML: isXML, decoder: decoder)
        checkDirect([Child].self, bytes: data, value: value, isXML: isXML, decoder: decoder)
        checkDirect([String: Shape].self, bytes: data, value: value, isXML: isXML, decoder: decoder)
        checkDirect([String: Int32?].self, bytes: data, value: value, isXML: isXML, decoder: decoder)
    }
    check(Document.self, from: value, decoder: decoder)
    check(Scalars.self, from: value, decoder: decoder)
    check([Child].self, from: value, decoder: decoder)
    check([String: Shape].self, from: value, decoder: decoder)
    check([UInt8].self, from: value, decoder: decoder)
    check([String: Int32?].self, from: value, decoder: decoder)
    check(Optional<Kind>.self, from: value, decoder: decoder)
}
