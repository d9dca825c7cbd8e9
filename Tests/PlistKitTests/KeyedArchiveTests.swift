import Foundation
import PlistKit
import TestSupport
import Testing

@Suite struct KeyedArchiveTests {
    static let archives = Corpus.entries.filter { $0.file.hasPrefix("keyed-archive/") }
    static let invalid: [String: String] = [
        "keyed-archive/bpylist2__invalid_uid_archive.plist":
            "not a valid keyed archive: a reference to object 10, but $objects has 3",
        "keyed-archive/bpylist2__no_top_archive.plist": "not a valid keyed archive: it has no $top dictionary",
    ]

    private func resolved(_ file: String) throws -> Plist {
        try KeyedArchive.resolve(try Plist(contentsOf: Paths.corpus.appendingPathComponent(file).path))
    }

    @Test(arguments: archives)
    func everyArchiveResolvesOrIsRejected(entry: Corpus.Entry) throws {
        let archive = try Plist(contentsOf: entry.url.path)
        if let message = Self.invalid[entry.file] {
            #expect(
                throws: PlistError(
                    .invalidArchive(String(message.dropFirst("not a valid keyed archive: ".count))), at: 0)
            ) {
                try KeyedArchive.resolve(archive)
            }
            return
        }
        let tree = try KeyedArchive.resolve(archive)
        #expect(tree.dictionary?.keys.elements == archive["$top"]?.dictionary?.keys.elements, "\(entry.file)")
        #expect(!tree.description.contains("UID("), "every reference is resolved: \(entry.file)")
    }

    @Test func valuesTheArchivesHold() throws {
        #expect(
            try resolved("keyed-archive/corelibs__NSKeyedUnarchiver-URLTest.plist") == [
                "root": "https://www.example.com/foo.xml"
            ])
        #expect(
            try resolved("keyed-archive/corelibs__NSKeyedUnarchiver-UUIDTest.plist") == [
                "root": "0AD863BA-7584-40CF-8896-BD87B3280C34"
            ])
        #expect(try resolved("keyed-archive/corelibs__NSOrderedSet-Numbers.archive") == ["root": [1, 2, 3, 4, 5]])
        #expect(
            try resolved("keyed-archive/cpython__KEYED_ARCHIVE.plist")["root"]?["$class"] == "OC_BuiltinPythonUnicode")
        let complex = try resolved("keyed-archive/corelibs__NSKeyedUnarchiver-ComplexTest.plist")
        #expect(try complex.value(at: "root.array") == [["$class": "NSNull"], "hello", 34545, ["key": "val"]])
        #expect(try complex.value(at: "root.url") == "https://www.swift.org/index.xml")
        let date = try resolved("keyed-archive/bpylist2__date_archive.plist")
        let raw = try Plist(
            contentsOf: Paths.corpus.appendingPathComponent("keyed-archive/bpylist2__date_archive.plist").path)
        let time = try #require(raw["$objects"]?.array?.compactMap { $0["NS.time"]?.double }.first)
        #expect(try date.value(at: "root.stamp") == .date(Date(timeIntervalSinceReferenceDate: time)))
    }

    @Test func cyclesAndSharingAreMarked() throws {
        let tree = try resolved("keyed-archive/bpylist2__circular_archive.plist")
        #expect(try tree.value(at: "root.$id") == 1)
        #expect(try tree.value(at: "root.$value.recursive") == ["$ref": 1])
        #expect(try tree.value(at: "root.$value.$class") == "crap.Foo")
    }

    @Test func foundationArchivesResolveToTheirValues() throws {
        let date = Date(timeIntervalSinceReferenceDate: 12345.5)
        let object: NSDictionary = [
            "name": "Ada", "list": [7, 2.5, "three"] as NSArray, "when": date, "bytes": Data([1, 2, 3]),
            "nested": ["k": "v"] as NSDictionary,
        ]
        let data = try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: false)
        let tree = try KeyedArchive.resolve(try Plist(bytes: data))
        // (No 0, 1 or Booleans: Foundation on Linux shares one NSNumber for 1 and true.)
        #expect(
            tree["root"]
                == [
                    "name": "Ada", "list": [7, 2.5, "three"], "when": .date(date), "bytes": .data(Data([1, 2, 3])),
                    "nested": ["k": "v"],
                ])
    }

    @Test func notAnArchive() {
        #expect(throws: PlistError(.invalidArchive("it has no $archiver"), at: 0)) {
            try KeyedArchive.resolve(["a": 1])
        }
        #expect(throws: PlistError(.invalidArchive("$archiver is \"Other\", not \"NSKeyedArchiver\""), at: 0)) {
            try KeyedArchive.resolve(["$archiver": "Other", "$objects": [], "$top": [:]])
        }
    }

    /// Objects are written once: 60 arrays that each list the next twice (2^60 paths) stay small.
    @Test func sharedObjectsAreWrittenOnce() throws {
        #expect(try KeyedArchive.resolve(Self.chain(classed: true)).description.count < 10_000)
    }

    /// Plain values are repeated where they are used, within the limits.
    @Test func sharedPlainContainersAreBounded() {
        #expect(throws: PlistError(.tooManyObjects(limit: 1 << 24), at: 0)) {
            try KeyedArchive.resolve(Self.chain(classed: false))
        }
    }

    private static func chain(classed: Bool) -> Plist {
        var objects: [Plist] = ["$null", ["$classname": "NSArray"]]
        for index in 0..<60 {
            let next = Plist.uid(UInt64(index + 3))
            objects.append(
                index == 59 ? "leaf" : classed ? ["$class": .uid(1), "NS.objects": [next, next]] : [next, next])
        }
        return [
            "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(2)], "$objects": .array(objects),
        ]
    }
}
