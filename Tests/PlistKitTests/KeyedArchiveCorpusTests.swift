import Foundation
import PlistKit
import TestSupport
import Testing

/// The class of the bpylist2 archives (`crap.Foo`), decoded by name.
final class CorpusFoo: PlistArchivable {
    static let archiveClassName = "CorpusFoo"
    var title: String?
    var count = 0
    var active = false
    var stamp: Date?
    var recursive: CorpusFoo?

    init() {}

    func encode(with coder: KeyedArchiveEncoder) throws {}

    func decode(from coder: KeyedArchiveDecoder) throws {
        title = try coder.decodeIfPresent(String.self, forKey: "title")
        if coder.contains("count") { count = try coder.decode(Int.self, forKey: "count") }
        if coder.contains("active") { active = try coder.decode(Bool.self, forKey: "active") }
        stamp = try coder.decodeIfPresent(Date.self, forKey: "stamp")
        recursive = try coder.decodeIfPresent(CorpusFoo.self, forKey: "recursive")
    }
}

/// Every keyed archive of the shared corpus: the generic resolved tree, typed decoding, and the
/// invalid ones' errors.
@Suite(.needsCorpus) struct KeyedArchiveCorpusTests {
    static let archives = Corpus.nonEmpty(
        Corpus.entries.filter { $0.file.hasPrefix("keyed-archive/") }, "keyed-archive")
    static let invalid: [String: KeyedArchiveError] = [
        "keyed-archive/bpylist2__invalid_uid_archive.plist": KeyedArchiveError(
            .referenceOutOfRange(10, objectCount: 3), key: "root"),
        "keyed-archive/bpylist2__no_top_archive.plist": KeyedArchiveError(.missingTop),
    ]

    private func archive(_ name: String) throws -> Plist {
        try Plist(bytes: try Paths.bytes(Paths.corpus.appendingPathComponent("keyed-archive/\(name)")))
    }

    private func resolved(_ name: String) throws -> Plist? {
        try KeyedArchive.resolve(try archive(name))["root"]
    }

    @Test(arguments: archives)
    func everyArchiveResolvesOrGivesItsError(entry: Corpus.Entry) throws {
        let plist = try Plist(bytes: try Paths.bytes(entry.url))
        #expect(plist == (try Corpus.expected(entry)), "the raw plist matches the oracle")
        if let error = Self.invalid[entry.file] {
            #expect(throws: error) { try KeyedArchive.resolve(plist) }
        } else {
            let tree = try KeyedArchive.resolve(plist)
            #expect(tree.dictionary?.keys.elements == plist["$top"]?.dictionary?.keys.elements)
        }
    }

    @Test func invalidArchivesAreRejectedByTheUnarchiver() throws {
        let unarchiver = try KeyedUnarchiver(plist: try archive("bpylist2__invalid_uid_archive.plist"))
        unarchiver.register(CorpusFoo.self, forClassName: "crap.Foo")
        #expect(throws: KeyedArchiveError(.referenceOutOfRange(10, objectCount: 3), key: "root")) {
            try unarchiver.decodeRoot(CorpusFoo.self)
        }
        #expect(throws: KeyedArchiveError(.missingTop)) {
            try KeyedUnarchiver(plist: try archive("bpylist2__no_top_archive.plist"))
        }
        let error = KeyedArchiveError(.referenceOutOfRange(10, objectCount: 3), key: "root")
        #expect(error.description == "key \"root\": reference to object #10, but $objects holds only 3 objects")
    }

    /// Each object of each valid archive replaced in turn by hostile values: reading gives a
    /// result or a `KeyedArchiveError`, never a crash or a hang.
    @Test(arguments: archives.filter { invalid[$0.file] == nil })
    func hostileObjectsGiveErrorsNotCrashes(entry: Corpus.Entry) throws {
        let plist = try Plist(bytes: try Paths.bytes(entry.url))
        let objects = try #require(plist["$objects"]?.array)
        for index in objects.indices.dropFirst() {
            let own = Plist.uid(UInt64(index))
            let hostile: [Plist] = [
                own, .uid(UInt64.max), ["$class": own], ["$class": .uid(0)], ["$class": 7],
                ["$class": .uid(1), "NS.objects": [own, .uid(999)], "NS.keys": [own]],
                ["$classname": "NSArray", "$classes": ["NSArray"], "NS.objects": [own]],
                ["$class": own, "$classname": "NSDictionary", "NS.keys": [own], "NS.objects": [own]],
            ]
            for value in hostile {
                var mutated = objects
                mutated[index] = value
                var archive = plist
                archive["$objects"] = .array(mutated)
                _ = try? KeyedArchive.resolve(archive)
                let unarchiver = try KeyedUnarchiver(plist: archive)
                unarchiver.register(CorpusFoo.self, forClassName: "crap.Foo")
                for key in plist["$top"]?.dictionary?.keys.elements ?? [] {
                    #expect(throwsOnlyArchiveErrors { _ = try unarchiver.decodeRoot(Plist.self, forKey: key) })
                    #expect(
                        throwsOnlyArchiveErrors { _ = try unarchiver.decodeRoot(of: [CorpusFoo.self], forKey: key) })
                }
            }
        }
    }

    private func throwsOnlyArchiveErrors(_ body: () throws -> Void) -> Bool {
        do {
            try body()
            return true
        } catch {
            return error is KeyedArchiveError
        }
    }

    @Test func resolvedTreesShowWhatTheArchivesHold() throws {
        #expect(
            try resolved("bpylist2__simple_archive.plist")
                == ["$class": "crap.Foo", "title": "yo", "count": 42, "active": true])
        #expect(
            try resolved("bpylist2__complex_archive.plist")
                == [
                    "$class": "crap.Foo", "metadata": ["$class": "NSDictionary", "fruit": "kiwi", "veg": "asparagus"],
                    "title": "yo", "count": 42, "active": true,
                    "categories": ["$class": "NSArray", "NS.objects": ["banana", "apple"]],
                ])
        #expect(
            try resolved("bpylist2__date_archive.plist")
                == [
                    "$class": "crap.Foo", "stamp": .date(Date(timeIntervalSinceReferenceDate: 509_523_358.684097)),
                    "title": "hello",
                ])
        #expect(
            try resolved("bpylist2__data_archive.plist") == [
                "$class": "crap.Foo", "title": "yo", "stamp": .data(Data()),
            ])
        #expect(
            try resolved("bpylist2__circular_archive.plist")
                == ["$class": "crap.Foo", "$id": "#1", "recursive": ["$ref": "#1"], "title": "hello"])
        #expect(
            try resolved("bpylist2__recursive_archive.plist")
                == [
                    "$class": "crap.Foo", "title": "hello",
                    "recursive": ["$class": "crap.Foo", "title": "yo", "recursive": "$null"],
                ])
        #expect(
            try resolved("corelibs__NSKeyedUnarchiver-ArrayTest.plist")
                == ["$class": "NSArray", "NS.objects": ["baa", "baa", "black", "sheep"]])
        #expect(
            try resolved("corelibs__NSKeyedUnarchiver-URLTest.plist")
                == [
                    "$class": "NSURL", "NS.relative": "foo.xml",
                    "NS.base": ["$class": "NSURL", "NS.base": "$null", "NS.relative": "https://www.example.com"],
                ])
        #expect(
            try resolved("corelibs__NSKeyedUnarchiver-NotificationTest.plist")
                == [
                    "$class": "NSNotification", "NS.name": "notification-name", "NS.object": "notification-object",
                    "NS.userinfo": ["$class": "NSDictionary", "notification-key": "notification-val"],
                ])
        #expect(
            try resolved("cpython__KEYED_ARCHIVE.plist")
                == ["$class": "OC_BuiltinPythonUnicode", "pytype": 1, "NS.string": "KeyArchive UID Test"])
        #expect(
            try resolved("corelibs__NSOrderedSet-Numbers.archive")
                == [
                    "$class": "NSOrderedSet", "NS.object.0": 1, "NS.object.1": 2, "NS.object.2": 3, "NS.object.3": 4,
                    "NS.object.4": 5,
                ])
    }

    @Test func sharedObjectsAppearOnceAndAreReferencedAfterwards() throws {
        let formatter = try #require(try resolved("corelibs__DateIntervalFormatter-Default.archive"))
        #expect(formatter["NS.timeZone"]?["$id"] == "#10")
        #expect(formatter["NS.timeZone"]?["NS.name"] == "GMT")
        #expect(formatter["NS.calendar"]?["NS.timezone"] == ["$ref": "#10"])
        #expect(formatter["NS.calendar"]?["NS.identifier"] == "gregorian")
        let changeLog = try #require(try resolved("bpylist2__fullChangeLog.bplist"))
        #expect(changeLog["$class"] == "JNStreamTable")
        #expect(changeLog["tableID"] == "fullChangeLog")
        #expect(changeLog["columns"]?["NS.objects"]?.count == 7)
        let rust = try KeyedArchive.resolve(try archive("rustplist__binary_NSKeyedArchiver.plist"))
        #expect(rust["foundItems"]?["$class"] == "NSMutableIndexSet")
        #expect(rust["foundItems"]?["NSRangeCount"] == 42)
    }

    @Test func foundationClassesDecodeAsSwiftValues() throws {
        let url = try KeyedUnarchiver(plist: try archive("corelibs__NSKeyedUnarchiver-URLTest.plist")).decodeRoot(
            URL.self)
        #expect(url.absoluteString == "https://www.example.com/foo.xml")
        let uuid = try KeyedUnarchiver(plist: try archive("corelibs__NSKeyedUnarchiver-UUIDTest.plist"))
            .decodeRoot(UUID.self)
        #expect(uuid == UUID(uuidString: "0AD863BA-7584-40CF-8896-BD87B3280C34"))
        let array = try KeyedUnarchiver(plist: try archive("corelibs__NSKeyedUnarchiver-ArrayTest.plist"))
            .decodeRoot([String].self)
        #expect(array == ["baa", "baa", "black", "sheep"])
        let complex = try KeyedUnarchiver(plist: try archive("corelibs__NSKeyedUnarchiver-ComplexTest.plist"))
        #expect(throws: KeyedArchiveError(.classNotAllowed("NSNull", allowed: plistClasses), object: 7)) {
            try complex.decodeRoot(Plist.self)
        }
        let decoded = try complex.decodeRootCodable(Complex.self)
        #expect(decoded.string == "hello")
        #expect(decoded.url.absoluteString == "https://www.swift.org/index.xml")
        #expect(decoded.uuid == UUID(uuidString: "71DC068E-3420-45FF-919E-3A267D55EC22"))
    }

    struct Complex: Decodable {
        var string: String
        var url: URL
        var uuid: UUID
    }

    private var plistClasses: [String] {
        [
            "NSString", "NSMutableString", "NSDate", "NSData", "NSMutableData", "NSArray", "NSMutableArray", "NSSet",
            "NSMutableSet", "NSDictionary", "NSMutableDictionary",
        ]
    }

    @Test func userClassesDecodeByRegisteredName() throws {
        let simple = try KeyedUnarchiver(plist: try archive("bpylist2__simple_archive.plist"))
        #expect(throws: KeyedArchiveError(.classNotAllowed("crap.Foo", allowed: ["CorpusFoo"]), object: 1)) {
            try simple.decodeRoot(CorpusFoo.self)
        }
        simple.register(CorpusFoo.self, forClassName: "crap.Foo")
        let foo = try simple.decodeRoot(CorpusFoo.self)
        #expect((foo.title, foo.count, foo.active) == ("yo", 42, true))

        let circular = try KeyedUnarchiver(plist: try archive("bpylist2__circular_archive.plist"))
        circular.register(CorpusFoo.self, forClassName: "crap.Foo")
        let cycle = try circular.decodeRoot(CorpusFoo.self)
        #expect(cycle.recursive === cycle)
        #expect(cycle.title == "hello")
        cycle.recursive = nil

        let recursive = try KeyedUnarchiver(plist: try archive("bpylist2__recursive_archive.plist"))
        recursive.register(CorpusFoo.self, forClassName: "crap.Foo")
        let chain = try recursive.decodeRoot(CorpusFoo.self)
        #expect(chain.recursive?.title == "yo")
        #expect(chain.recursive?.recursive == nil)

        let dated = try KeyedUnarchiver(plist: try archive("bpylist2__date_archive.plist"))
        dated.register(CorpusFoo.self, forClassName: "crap.Foo")
        #expect(try dated.decodeRoot(CorpusFoo.self).stamp == Date(timeIntervalSinceReferenceDate: 509_523_358.684097))
    }
}
