import Foundation
import PlistCore
import Testing

@Suite struct KeyPathTests {
    @Test(arguments: [
        ("", [String]()), ("a", ["a"]), ("a.b.0", ["a", "b", "0"]), ("a\\.b.c", ["a.b", "c"]),
        ("a..b", ["a", "", "b"]), (".", ["", ""]), ("a\\b", ["a\\b"]), ("a\\", ["a\\"]), ("\\.\\.", [".."]),
    ])
    func parsing(text: String, components: [String]) {
        let path = PlistKeyPath(parsing: text)
        #expect(path.components == components)
        #expect(PlistKeyPath(parsing: path.description) == path, "description reads back: \(path.description)")
    }

    private let sample: Plist = [
        "name": "App", "list": [1, "two", ["deep": true]], "dotted.key": 3, "empty": [:],
    ]

    @Test func valuesAtKeyPaths() throws {
        #expect(try sample.value(at: "") == sample)
        #expect(try sample.value(at: "name") == "App")
        #expect(try sample.value(at: "list.1") == "two")
        #expect(try sample.value(at: "list.2.deep") == true)
        #expect(try sample.value(at: "dotted\\.key") == 3)
    }

    @Test(arguments: [
        ("missing", "no value at key path \"missing\""),
        ("list.3", "no value at key path \"list.3\""),
        ("list.-1", "no value at key path \"list.-1\""),
        ("list.x", "no value at key path \"list.x\""),
        ("list.2.none.more", "no value at key path \"list.2.none\""),
        ("name.first", "the value at key path \"name\" is a string, not a dictionary or array"),
        ("dotted.key", "no value at key path \"dotted\""),
    ])
    func missingValues(path: String, message: String) {
        #expect(throws: PlistError.self) { try sample.value(at: PlistKeyPath(parsing: path)) }
        do {
            _ = try sample.value(at: PlistKeyPath(parsing: path))
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func insertAddsNewKeysAtTheEnd() throws {
        var plist = sample
        try plist.insert("new", at: "added")
        #expect(plist.dictionary?.keys.last == "added")
        try plist.insert(1, at: "empty.one")
        #expect(try plist.value(at: "empty") == ["one": 1])
        #expect(throws: PlistError(.valueExistsAtKeyPath("name"), at: 0)) { try plist.insert("x", at: "name") }
        #expect(throws: PlistError(.noValueAtKeyPath("nothing"), at: 0)) { try plist.insert(1, at: "nothing.here") }
    }

    @Test func insertIntoArraysGoesBeforeTheIndex() throws {
        var plist = sample
        try plist.insert("first", at: "list.0")
        try plist.insert("last", at: "list.4")
        #expect(try plist.value(at: "list") == ["first", 1, "two", ["deep": true], "last"])
        #expect(throws: PlistError(.noValueAtKeyPath("list.9"), at: 0)) { try plist.insert(1, at: "list.9") }
        #expect(throws: PlistError(.notAContainer(keyPath: "name", type: "string"), at: 0)) {
            try plist.insert(1, at: "name.x")
        }
    }

    @Test func append() throws {
        var plist = sample
        try plist.append(4, toArrayAt: "list")
        #expect(try plist.value(at: "list.3") == 4)
        #expect(throws: PlistError(.unexpectedType(keyPath: "empty", expected: "array", found: "dictionary"), at: 0)) {
            try plist.append(4, toArrayAt: "empty")
        }
        var top: Plist = []
        try top.append("x", toArrayAt: "")
        #expect(top == ["x"])
    }

    @Test func replaceOverwritesInPlace() throws {
        var plist = sample
        try plist.replace("Other", at: "name")
        #expect(plist.dictionary?.keys.first == "name", "an overwritten key keeps its position")
        #expect(try plist.value(at: "name") == "Other")
        try plist.replace(9, at: "list.1")
        #expect(try plist.value(at: "list") == [1, 9, ["deep": true]], "array elements are overwritten, not inserted")
        try plist.replace(false, at: "list.2.deep")
        #expect(try plist.value(at: "list.2.deep") == false)
        try plist.replace("new", at: "fresh")
        #expect(try plist.value(at: "fresh") == "new")
        #expect(throws: PlistError(.noValueAtKeyPath("list.3"), at: 0)) { try plist.replace(1, at: "list.3") }
        try plist.replace("whole", at: "")
        #expect(plist == "whole")
    }

    @Test func remove() throws {
        var plist = sample
        try plist.remove(at: "list.0")
        try plist.remove(at: "dotted\\.key")
        #expect(try plist.value(at: "list") == ["two", ["deep": true]])
        #expect(plist["dotted.key"] == nil)
        #expect(throws: PlistError(.noValueAtKeyPath("dotted"), at: 0)) { try plist.remove(at: "dotted.key") }
        #expect(throws: PlistError(.noValueAtKeyPath("dotted\\.key"), at: 0)) { try plist.remove(at: "dotted\\.key") }
        #expect(throws: PlistError(.noValueAtKeyPath(""), at: 0)) { try plist.remove(at: "") }
    }

    @Test func editsDoNotChangeCopies() throws {
        var plist = sample
        let copy = plist
        try plist.replace("changed", at: "list.2.deep")
        #expect(try copy.value(at: "list.2.deep") == true)
        #expect(try plist.value(at: "list.2.deep") == "changed")
    }

    @Test func typeNames() {
        let values: [Plist] = [
            [:], [], "", 1, 1.5, true, .date(.init(timeIntervalSinceReferenceDate: 0)), .data(.init()), .uid(1),
        ]
        #expect(
            values.map(\.typeName) == [
                "dictionary", "array", "string", "integer", "float", "bool", "date", "data", "uid",
            ])
    }
}
