import Foundation
import PlistKit
import Testing

/// A tree node with a back reference to its parent: a reference cycle.
final class Node: PlistArchivable {
    static let archiveClassName = "Node"
    var name = ""
    var weight = 0.0
    var children: [Node] = []
    weak var parent: Node?
    var favorite: Node?
    var tags: Set<String> = []
    var created: Date?
    var settings: Settings?

    struct Settings: Codable, Equatable {
        var theme: String
        var sizes: [Int]
        var nested: [String: Double]
        var missing: Int?
        var id: UUID
    }

    init() {}

    convenience init(_ name: String) {
        self.init()
        self.name = name
    }

    func encode(with coder: KeyedArchiveEncoder) throws {
        try coder.encode(name, forKey: "name")
        coder.encode(weight, forKey: "weight")
        try coder.encode(children, forKey: "children")
        try coder.encode(parent, forKey: "parent")
        try coder.encode(favorite, forKey: "favorite")
        try coder.encode(tags, forKey: "tags")
        try coder.encode(created, forKey: "created")
        if let settings { try coder.encodeCodable(settings, forKey: "settings") }
    }

    func decode(from coder: KeyedArchiveDecoder) throws {
        name = try coder.decode(String.self, forKey: "name")
        weight = try coder.decode(Double.self, forKey: "weight")
        children = try coder.decode([Node].self, forKey: "children")
        parent = try coder.decode(Node?.self, forKey: "parent")
        favorite = try coder.decodeIfPresent(Node.self, forKey: "favorite")
        tags = try coder.decode(Set<String>.self, forKey: "tags")
        created = try coder.decode(Date?.self, forKey: "created")
        if coder.contains("settings") { settings = try coder.decodeCodable(Settings.self, forKey: "settings") }
    }
}

/// A subclass, decoded where its superclass is asked for once registered.
final class Leaf: PlistArchivable {
    static let archiveClassName = "Leaf"
    init() {}
    func encode(with coder: KeyedArchiveEncoder) throws {}
    func decode(from coder: KeyedArchiveDecoder) throws {}
}

/// Archive → unarchive round trips, secure decoding and the errors for bad archives.
@Suite struct KeyedArchiveRoundTripTests {
    private func family() -> Node {
        let root = Node("root")
        root.weight = 2.5
        let first = Node("first")
        let second = Node("second")
        root.children = [first, second]
        first.parent = root
        second.parent = root
        first.favorite = second
        root.favorite = second
        root.tags = ["a", "b"]
        root.created = Date(timeIntervalSinceReferenceDate: 1234.5)
        root.settings = .init(
            theme: "dark", sizes: [1, 2, 3], nested: ["x": 0.5], missing: nil,
            id: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)
        return root
    }

    private func checkFamily(_ root: Node) {
        #expect(root.name == "root")
        #expect(root.weight == 2.5)
        #expect(root.children.map(\.name) == ["first", "second"])
        #expect(root.children.allSatisfy { $0.parent === root }, "the parent ↔ child cycle is the same graph")
        #expect(root.favorite === root.children[1], "shared references stay shared")
        #expect(root.children[0].favorite === root.children[1])
        #expect(root.tags == ["a", "b"])
        #expect(root.created == Date(timeIntervalSinceReferenceDate: 1234.5))
        #expect(root.settings == family().settings)
        #expect(root.parent == nil)
    }

    @Test(arguments: [PlistFormat.binary, .xml])
    func graphsWithSharingAndCyclesRoundTrip(format: PlistFormat) throws {
        let root = family()
        let bytes = try KeyedArchiver().archivedBytes(root, format: format)
        let copy = try KeyedUnarchiver(bytes: bytes).decodeRoot(Node.self)
        checkFamily(copy)
    }

    @Test func eachInstanceIsStoredOnceWithItsClass() throws {
        let archive = try KeyedArchiver().archive(family())
        #expect(archive["$archiver"] == "NSKeyedArchiver")
        #expect(archive["$version"] == 100_000)
        #expect(archive["$top"] == ["root": .uid(1)])
        let objects = try #require(archive["$objects"]?.array)
        #expect(objects[0] == "$null")
        #expect(
            objects.filter { $0["$classname"] == "Node" } == [
                ["$classes": ["Node", "NSObject"], "$classname": "Node"]
            ])
        #expect(objects.filter { $0["name"] != nil }.count == 3, "three nodes, each stored once")
        let tree = try KeyedArchive.resolve(archive)
        #expect(tree["root"]?["children"]?["NS.objects"]?[0]?["parent"] == ["$ref": "#1"])
        #expect(tree["root"]?["$id"] == "#1")
    }

    @Test func codableValuesRoundTripAsDictionariesAndArrays() throws {
        let settings = try #require(family().settings)
        let archive = try KeyedArchiver().archive(codable: settings)
        let tree = try KeyedArchive.resolve(archive)
        #expect(tree["root"]?["$class"] == "NSDictionary")
        #expect(tree["root"]?["theme"] == "dark")
        #expect(tree["root"]?["sizes"] == ["$class": "NSArray", "NS.objects": [1, 2, 3]])
        #expect(tree["root"]?["id"]?["$class"] == "NSUUID")
        #expect(try KeyedUnarchiver(plist: archive).decodeRootCodable(Node.Settings.self) == settings)

        let nested: [[String?]] = [["a", nil], [], ["b"]]
        let nestedArchive = try KeyedArchiver().archive(codable: nested)
        #expect(try KeyedUnarchiver(plist: nestedArchive).decodeRootCodable([[String?]].self) == nested)
    }

    @Test func plistValuesRoundTripAsFoundationObjects() throws {
        let value: Plist = [
            "string": "text", "int": -7, "big": .integer(PlistInteger(UInt64.max)), "real": 1.5, "bool": true,
            "date": .date(Date(timeIntervalSinceReferenceDate: 99)), "data": .data(Data([1, 2, 3])),
            "array": ["x", ["nested": []]], "empty": [:],
        ]
        let archive = try KeyedArchiver().archive(value)
        #expect(try KeyedUnarchiver(plist: archive).decodeRoot(Plist.self) == value)
        #expect(throws: KeyedArchiveError(.notArchivable("a UID value"), key: nil)) {
            try KeyedArchiver().archive(Plist.uid(3))
        }
    }

    @Test func dictionariesWhoseKeysCouldClashKeepTheirKeysAndObjects() throws {
        let archive = try KeyedArchiver().archive(["$class": 1, "ok": 2] as Plist)
        #expect(
            try KeyedArchive.resolve(archive)["root"]
                == ["$class": "NSDictionary", "NS.keys": ["$class", "ok"], "NS.objects": [1, 2]])
        let numbers = try KeyedArchiver().archive([1: "one"])
        #expect(
            try KeyedArchive.resolve(numbers)["root"]
                == ["$class": "NSDictionary", "NS.keys": [1], "NS.objects": ["one"]])
    }

    @Test func onlyTheAllowedClassesDecode() throws {
        let archive = try KeyedArchiver().archive(family())
        let unarchiver = try KeyedUnarchiver(plist: archive)
        #expect(throws: KeyedArchiveError(.classNotAllowed("Node", allowed: ["Leaf"]), object: 1)) {
            try unarchiver.decodeRoot(of: [Leaf.self])
        }
        #expect(
            throws: KeyedArchiveError(.classNotAllowed("Node", allowed: ["NSString", "NSMutableString"]), object: 1)
        ) {
            try unarchiver.decodeRoot(String.self)
        }
        #expect(throws: KeyedArchiveError(.classNotAllowed("Node", allowed: []), object: 1)) {
            try unarchiver.decodeRoot(of: [])
        }
        let root = try #require(try unarchiver.decodeRoot(of: [Leaf.self, Node.self]) as? Node)
        checkFamily(root)

        let renamed = try KeyedUnarchiver(plist: archive)
        renamed.register(Leaf.self, forClassName: "Node")
        #expect(try renamed.decodeRoot(of: [Leaf.self]) is Leaf, "a registered name decodes as the registered class")
    }

    @Test func badArchivesGiveClearErrors() throws {
        let good = try KeyedArchiver().archive(["a", "b"])
        func with(_ key: String, _ value: Plist?) -> Plist {
            var archive = good
            archive[key] = value
            return archive
        }
        #expect(throws: KeyedArchiveError(.notAnArchive)) { try KeyedUnarchiver(plist: ["a"]) }
        #expect(throws: KeyedArchiveError(.wrongArchiver("NSArchiver"))) {
            try KeyedUnarchiver(plist: with("$archiver", "NSArchiver"))
        }
        #expect(throws: KeyedArchiveError(.wrongVersion(99))) { try KeyedUnarchiver(plist: with("$version", 99)) }
        #expect(throws: KeyedArchiveError(.missingTop)) { try KeyedUnarchiver(plist: with("$top", nil)) }
        #expect(throws: KeyedArchiveError(.keyNotFound("other"), key: "other")) {
            try KeyedUnarchiver(plist: good).decodeRoot([String].self, forKey: "other")
        }
        #expect(throws: KeyedArchiveError(.notAReference, key: "root")) {
            try KeyedUnarchiver(plist: with("$top", ["root": 1])).decodeRoot([String].self)
        }
        var objects = try #require(good["$objects"]?.array)
        objects[1]["$class"] = .uid(1)
        #expect(throws: KeyedArchiveError(.missingClass, object: 1)) {
            try KeyedUnarchiver(plist: with("$objects", .array(objects))).decodeRoot([String].self)
        }
        #expect(throws: KeyedArchiveError(.missingClass, object: 1, key: "root")) {
            try KeyedArchive.resolve(with("$objects", .array(objects)))
        }
        #expect(throws: KeyedArchiveError(.typeMismatch(expected: "Int (NSNumber)"), object: 2)) {
            try KeyedUnarchiver(plist: good).decodeRoot([Int].self)
        }
    }

    /// An `NSArray` (object 1) that contains itself, and an `NSDictionary` whose `inner` array holds it.
    private let selfContaining: Plist = [
        "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1), "dictionary": .uid(4)],
        "$objects": [
            "$null", ["$class": .uid(2), "NS.objects": [.uid(1)]], ["$classname": "NSArray", "$classes": ["NSArray"]],
            "inner", ["$class": .uid(5), "NS.keys": [.uid(3)], "NS.objects": [.uid(6)]],
            ["$classname": "NSDictionary", "$classes": ["NSDictionary"]], ["$class": .uid(2), "NS.objects": [.uid(4)]],
        ],
    ]

    struct Box: Codable {
        var inner: [Box]
    }

    @Test func aCycleWhereAValueIsExpectedIsAnError() throws {
        let unarchiver = try KeyedUnarchiver(plist: selfContaining)
        #expect(throws: KeyedArchiveError(.cycleThroughValue, object: 1)) { try unarchiver.decodeRoot([Plist].self) }
        #expect(throws: KeyedArchiveError(.cycleThroughValue, object: 1)) { try unarchiver.decodeRoot(Plist.self) }
        let error = try #require(throws: DecodingError.self) {
            try unarchiver.decodeRootCodable(Box.self, forKey: "dictionary")
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(context.underlyingError as? KeyedArchiveError == KeyedArchiveError(.cycleThroughValue, object: 4))
        #expect(context.codingPath.map(\.stringValue) == ["dictionary", "inner", "Index 0"])
        #expect(
            try KeyedArchive.resolve(selfContaining)["root"] == [
                "$class": "NSArray", "$id": "#1", "NS.objects": [["$ref": "#1"]],
            ])
    }

    @Test func depthIsLimitedWhenReadingAndWriting() throws {
        let head = Node("0")
        var tail = head
        for index in 1..<40 {
            let next = Node("\(index)")
            tail.favorite = next
            tail = next
        }
        #expect(throws: KeyedArchiveError(.tooDeep(limit: 10))) { try KeyedArchiver(maxDepth: 10).archive(head) }
        let archive = try KeyedArchiver().archive(head)
        let reading = try #require(throws: KeyedArchiveError.self) {
            try KeyedUnarchiver(plist: archive, maxDepth: 10).decodeRoot(Node.self)
        }
        #expect(reading.kind == .tooDeep(limit: 10))
        let resolving = try #require(throws: KeyedArchiveError.self) { try KeyedArchive.resolve(archive, maxDepth: 10) }
        #expect(resolving.kind == .tooDeep(limit: 10))
        #expect(try KeyedUnarchiver(plist: archive).decodeRoot(Node.self).favorite?.favorite?.name == "2")
    }

    @Test func sharedValuesAreDecodedOnce() throws {
        // Each array holds the previous one twice: 2^60 elements if expanded, 61 objects in the archive.
        var objects: [Plist] = ["$null", ["$classname": "NSArray", "$classes": ["NSArray"]], "leaf"]
        for _ in 0..<60 {
            let previous = Plist.uid(UInt64(objects.count - 1))
            objects.append(["$class": .uid(1), "NS.objects": [previous, previous]])
        }
        let archive: Plist = [
            "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(UInt64(objects.count - 1))],
            "$objects": .array(objects),
        ]
        let root = try KeyedUnarchiver(plist: archive).decodeRoot([Plist].self)
        #expect(root.count == 2)
        #expect(root[0][0]?[1]?.count == 2)
        let tree = try KeyedArchive.resolve(archive)["root"]
        #expect(tree?["$id"] == nil)
        #expect(tree?["NS.objects"]?[1] == ["$ref": .string("#\(objects.count - 2)")])
    }
}
