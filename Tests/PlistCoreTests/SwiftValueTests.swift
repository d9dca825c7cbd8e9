import Foundation
import PlistCore
import Testing

/// Swift variables into `Plist` and typed reads back, written as user code is (issue 45 items
/// 1, 2 and 5). None of these tests compiled before: `Plist(version)` with a `String`,
/// `Plist(tags)` with a `[String]`, `as(_:)`, index assignment and `mapValues` to `String`.
@Suite struct SwiftValueTests {
    @Test func variablesGoIntoAPlist() {
        var info: Plist = ["CFBundleName": "Demo"]
        let version = "1.4"
        let ratio = 0.75
        let single: Float = 0.5
        let flag = true
        let count = 3
        let byte: UInt8 = 200
        let small: Int16 = -7
        let huge = UInt64.max
        let opened = Date(timeIntervalSinceReferenceDate: 100)
        let bytes = Data([1, 2, 3])
        let tags = ["a", "b"]
        let sizes: [String: Int] = ["width": 640, "height": 480]
        let nested: [String: [[String: Double]]] = ["rows": [["x": 1.5], ["y": 2]]]
        info["CFBundleVersion"] = Plist(version)
        info["ratio"] = Plist(ratio)
        info["single"] = Plist(single)
        info["flag"] = Plist(flag)
        info["count"] = Plist(count)
        info["byte"] = Plist(byte)
        info["small"] = Plist(small)
        info["huge"] = Plist(huge)
        info["opened"] = Plist(opened)
        info["bytes"] = Plist(bytes)
        info["tags"] = Plist(tags)
        info["sizes"] = Plist(sizes)
        info["nested"] = Plist(nested)

        #expect(info["CFBundleVersion"] == "1.4")
        #expect(info["ratio"] == 0.75)
        #expect(info["single"] == 0.5)
        #expect(info["flag"] == true)
        #expect(info["count"] == 3)
        #expect(info["byte"] == 200)
        #expect(info["small"] == -7)
        #expect(info["huge"] == .integer(PlistInteger(UInt64.max)))
        #expect(info["opened"] == .date(opened))
        #expect(info["bytes"] == .data(bytes))
        #expect(info["tags"] == ["a", "b"])
        #expect(info["sizes"] == ["height": 480, "width": 640])
        #expect(info["nested"] == ["rows": [["x": 1.5], ["y": 2.0]]])
        // Literals of mixed values, in their order.
        #expect(Plist(["b": "x", "a": 1]).dictionary?.keys.elementsEqual(["b", "a"]) == true)
        #expect(Plist(["a", 1, true]) == ["a", 1, true])

        // Typed reads back give the Swift values.
        #expect(info["CFBundleVersion"]?.as(String.self) == version)
        #expect(info["tags"]?.as([String].self) == tags)
        #expect(info["sizes"]?.as([String: Int].self) == sizes)
        #expect(info["nested"]?.as([String: [[String: Double]]].self) == nested)
        #expect(info["byte"]?.as(UInt8.self) == byte)
        #expect(info["huge"]?.as(UInt64.self) == huge)
        #expect(info["single"]?.as(Float.self) == single)
        #expect(info["opened"]?.as(Date.self) == opened)
        #expect(info["bytes"]?.as(Data.self) == bytes)
        #expect(info["count"]?.as(Double.self) == 3)
    }

    /// `nil` exactly when the value is not of the shape asked for.
    @Test func typedReadsAreNilOnlyForAnotherShape() {
        let value: Plist = ["names": ["a", 1], "empty": [], "big": 300, "text": "1", "real": 1.5]
        #expect(value["names"]?.as([String].self) == nil)
        #expect(value["names"]?.as([Plist].self) == ["a", 1])
        #expect(value["empty"]?.as([String].self) == [])
        #expect(value["big"]?.as(UInt8.self) == nil)
        #expect(value["big"]?.as(Int16.self) == 300)
        #expect(value["text"]?.as(Int.self) == nil)
        #expect(value["real"]?.as(Int.self) == nil)
        #expect(value.as([String: Plist].self)?.count == 5)
        #expect(value.as([String: String].self) == nil)
    }

    /// Keys and indexes assign through a chain as they read.
    @Test func nestedEditsByIndex() {
        var info: Plist = [
            "CFBundleURLTypes": [["CFBundleURLSchemes": ["myapp-dev"], "CFBundleURLName": "x"]],
            "list": [1, 2, 3],
        ]
        info["CFBundleURLTypes"]?[0]?["CFBundleURLSchemes"]?[0] = "myapp-prod"
        #expect(info["CFBundleURLTypes"]?[0]?["CFBundleURLSchemes"] == ["myapp-prod"])
        info["list"]?[1] = nil
        #expect(info["list"] == [1, 3])
        // An index out of range ends the chain: nothing is set.
        info["list"]?[5]?["k"] = "v"
        #expect(info["list"] == [1, 3])
        // So does an index into a value that is not an array.
        info["CFBundleURLTypes"]?[0]?["CFBundleURLName"]?[0]?["k"] = "y"
        #expect(info["CFBundleURLTypes"]?[0]?["CFBundleURLName"] == "x")
        var array: Plist = ["a", "b"]
        array[1] = "c"
        #expect(array == ["a", "c"])
    }

    /// `mapValues` to another type gives a Swift dictionary; two spellings that `String` calls
    /// equal are one key, the later entry's value.
    @Test func mapValuesToOtherTypes() throws {
        let entries = try #require(
            Plist.dictionary(["title": "A", "count": 2, "e\u{301}": "first", "\u{E9}": "second"]).dictionary)
        let titles = entries.mapValues { $0.string ?? "" }
        #expect(titles == ["title": "A", "count": "", "\u{E9}": "second"])
        let counts = entries.compactMapValues { $0.int }
        #expect(counts == ["count": 2])
        let same: PlistDictionary = entries.mapValues { $0 }
        #expect(same.count == 4)
    }
}
