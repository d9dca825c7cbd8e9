import Foundation
import PlistKit
import Testing

/// Foundation's side of `Note`: an `NSObject` with `NSSecureCoding`, archived as class `Note`.
final class FoundationNote: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    var title: String
    var next: FoundationNote?
    var count: Int

    init(title: String, next: FoundationNote?, count: Int) {
        (self.title, self.next, self.count) = (title, next, count)
    }

    func encode(with coder: NSCoder) {
        coder.encode(title as NSString, forKey: "title")
        coder.encode(next, forKey: "next")
        coder.encode(count, forKey: "count")
    }

    init?(coder: NSCoder) {
        guard let title = coder.decodeObject(of: NSString.self, forKey: "title") else { return nil }
        self.title = title as String
        next = coder.decodeObject(of: FoundationNote.self, forKey: "next")
        count = coder.decodeInteger(forKey: "count")
    }
}

/// Our side of `Note`.
final class Note: PlistArchivable {
    static let archiveClassName = "Note"
    var title = ""
    var next: Note?
    var count = 0

    init() {}

    func encode(with coder: KeyedArchiveEncoder) throws {
        try coder.encode(title, forKey: "title")
        try coder.encode(next, forKey: "next")
        coder.encode(count, forKey: "count")
    }

    func decode(from coder: KeyedArchiveDecoder) throws {
        title = try coder.decode(String.self, forKey: "title")
        next = try coder.decodeIfPresent(Note.self, forKey: "next")
        count = try coder.decode(Int.self, forKey: "count")
    }
}

/// Interoperability with Foundation's `NSKeyedArchiver` and `NSKeyedUnarchiver` on this machine.
@Suite struct KeyedArchiveFoundationTests {
    static let foundationClasses: [AnyClass] = [
        NSString.self, NSNumber.self, NSArray.self, NSDictionary.self, NSDate.self, NSData.self, NSSet.self,
        NSUUID.self, NSURL.self, NSNull.self,
    ]
    let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    let url = URL(string: "https://example.com/a/b?c=d")!
    let date = Date(timeIntervalSinceReferenceDate: 12_345.678)

    private func foundationReads(_ bytes: [UInt8]) throws -> Any? {
        try NSKeyedUnarchiver.unarchivedObject(ofClasses: Self.foundationClasses, from: Data(bytes))
    }

    private func foundationArchive(_ root: Any) throws -> [UInt8] {
        [UInt8](try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: true))
    }

    @Test(arguments: [PlistFormat.binary, .xml])
    func foundationReadsWhatWeWrite(format: PlistFormat) throws {
        let archiver = KeyedArchiver()
        #expect(try foundationReads(archiver.archivedBytes("héllo", format: format)) as? String == "héllo")
        #expect(try foundationReads(archiver.archivedBytes(42, format: format)) as? NSNumber == 42)
        #expect(try foundationReads(archiver.archivedBytes(2.5, format: format)) as? NSNumber == 2.5)
        #expect(try foundationReads(archiver.archivedBytes(true, format: format)) as? NSNumber == true)
        #expect(try foundationReads(archiver.archivedBytes(date, format: format)) as? Date == date)
        #expect(
            try foundationReads(archiver.archivedBytes(Data([0, 1, 255]), format: format)) as? Data
                == Data([0, 1, 255]))
        #expect(try foundationReads(archiver.archivedBytes(uuid, format: format)) as? UUID == uuid)
        #expect(try foundationReads(archiver.archivedBytes(url, format: format)) as? URL == url)
        #expect(try foundationReads(archiver.archivedBytes(KeyedArchiveNull(), format: format)) is NSNull)
        let set = try foundationReads(archiver.archivedBytes(Set(["a", "b"]), format: format)) as? NSSet
        #expect(set == NSSet(array: ["a", "b"]))
        let array = try foundationReads(archiver.archivedBytes(["x", "y", "x"], format: format)) as? NSArray
        #expect(array == ["x", "y", "x"])
        let dictionary: [String: [Int]] = ["one": [1], "two": [1, 2]]
        let read = try foundationReads(archiver.archivedBytes(dictionary, format: format)) as? NSDictionary
        #expect(read == ["one": [1], "two": [1, 2]] as NSDictionary)
        let plist: Plist = ["name": "x", "when": .date(date), "list": [1, 2.5, false], "blob": .data(Data([7]))]
        let fromPlist = try foundationReads(archiver.archivedBytes(plist, format: format)) as? NSDictionary
        #expect(fromPlist == ["name": "x", "when": date, "list": [1, 2.5, false], "blob": Data([7])] as NSDictionary)
        let codable = Pair(name: "p", values: [1, 2], id: uuid)
        let fromCodable = try foundationReads(archiver.archive(codable: codable).bytes(format: format)) as? NSDictionary
        #expect(fromCodable == ["name": "p", "values": [1, 2], "id": uuid] as NSDictionary)
    }

    struct Pair: Codable {
        var name: String
        var values: [Int]
        var id: UUID
    }

    @Test func weReadWhatFoundationWrites() throws {
        func ours<T: KeyedArchivable>(_ root: Any, as type: T.Type) throws -> T {
            try KeyedUnarchiver(bytes: try foundationArchive(root)).decodeRoot(type)
        }
        #expect(try ours("héllo" as NSString, as: String.self) == "héllo")
        #expect(try ours(NSNumber(value: -12), as: Int.self) == -12)
        #expect(try ours(NSNumber(value: 0.25), as: Double.self) == 0.25)
        #expect(try ours(NSNumber(value: true), as: Bool.self) == true)
        #expect(try ours(date as NSDate, as: Date.self) == date)
        #expect(try ours(Data([3, 4]) as NSData, as: Data.self) == Data([3, 4]))
        #expect(try ours(NSMutableData(data: Data([5, 6])), as: Data.self) == Data([5, 6]))
        #expect(try ours(uuid as NSUUID, as: UUID.self) == uuid)
        #expect(try ours(url as NSURL, as: URL.self) == url)
        let relative = NSURL(string: "c/d.xml", relativeTo: URL(string: "https://example.com/a/"))!
        #expect(try ours(relative, as: URL.self).absoluteString == "https://example.com/a/c/d.xml")
        _ = try ours(NSNull(), as: KeyedArchiveNull.self)
        #expect(try ours(NSSet(array: [1, 2]), as: Set<Int>.self) == [1, 2])
        #expect(try ours(NSMutableArray(array: ["a", "b"]), as: [String].self) == ["a", "b"])
        let dictionary: NSDictionary = ["k": ["nested": [1, 2]], "d": date, "n": 3]
        #expect(
            try ours(dictionary, as: Plist.self)
                == ["k": ["nested": [1, 2]], "d": .date(date), "n": 3])
        let shared = NSMutableArray(array: ["s"])
        let twice: NSArray = [shared, shared]
        #expect(try ours(twice, as: [[String]].self) == [["s"], ["s"]])
        let tree = try KeyedArchive.resolve(try Plist(bytes: try foundationArchive(twice)))
        #expect(tree["root"]?["NS.objects"]?[1]?["$ref"] != nil, "Foundation stores the shared array once")
    }

    @Test func userClassesCrossBetweenFoundationAndUs() throws {
        // Foundation → us.
        let last = FoundationNote(title: "last", next: nil, count: 2)
        let list: NSArray = [FoundationNote(title: "first", next: last, count: 1), last]
        // Foundation on Linux ignores setClassName(_:for:) and writes the module-qualified class name.
        let unarchiverOfNotes = try KeyedUnarchiver(bytes: try foundationArchive(list))
        unarchiverOfNotes.register(Note.self, forClassName: NSStringFromClass(FoundationNote.self))
        let notes = try unarchiverOfNotes.decodeRoot([Note].self)
        #expect(notes.map(\.title) == ["first", "last"])
        #expect(notes.map(\.count) == [1, 2])
        #expect(notes[0].next === notes[1], "the shared note stays shared")

        // Us → Foundation.
        let ourLast = Note()
        (ourLast.title, ourLast.count) = ("last", 2)
        let ourFirst = Note()
        (ourFirst.title, ourFirst.next, ourFirst.count) = ("first", ourLast, 1)
        let bytes = try KeyedArchiver().archivedBytes([ourFirst, ourLast])
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: Data(bytes))
        unarchiver.setClass(FoundationNote.self, forClassName: "Note")
        let read = try #require(
            unarchiver.decodeObject(of: [NSArray.self, FoundationNote.self], forKey: NSKeyedArchiveRootObjectKey)
                as? [FoundationNote])
        #expect(read.map(\.title) == ["first", "last"])
        #expect(read.map(\.count) == [1, 2])
        #expect(read[0].next === read[1])
    }
}
