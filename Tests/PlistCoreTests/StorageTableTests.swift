import Testing

@testable import PlistCore

/// The writers' table of containers by storage, against a plain list of what was inserted.
@Suite struct StorageTableTests {
    @Test func findsWhatWasInsertedAndNothingElse() throws {
        // Kept alive, so that every array and dictionary has storage of its own.
        let arrays: [[Plist]] = (0..<3_000).map { [.integer(PlistInteger($0))] }
        let dictionaries: [PlistDictionary] = (0..<1_000).map { ["k\($0)": .bool(true)] }
        // A dictionary sharing the values (not the keys) of another, and an array made of them.
        let sharingValues = PlistDictionary(uncheckedUniqueKeys: ["other"], values: dictionaries[0].valueStorage)
        let first = try #require(StorageIdentity(dictionaries[0]))
        #expect(try #require(StorageIdentity(sharingValues)).address == first.address)
        #expect(try #require(StorageIdentity(dictionaries[0].valueStorage)).address == first.address)
        var table = StorageTable<Int>()
        for (index, array) in arrays.enumerated() where index % 2 == 0 {
            table.insert(index, for: try #require(StorageIdentity(array)))
        }
        for (index, dictionary) in dictionaries.enumerated() {
            table.insert(-index, for: try #require(StorageIdentity(dictionary)))
        }
        for (index, array) in arrays.enumerated() {
            #expect(table[try #require(StorageIdentity(array))] == (index % 2 == 0 ? index : nil))
        }
        for (index, dictionary) in dictionaries.enumerated() {
            #expect(table[try #require(StorageIdentity(dictionary))] == -index)
        }
        #expect(table[try #require(StorageIdentity(sharingValues))] == nil)
        #expect(table[try #require(StorageIdentity(dictionaries[0].valueStorage))] == nil)
        // A copy shares its storage; inserting again replaces the value.
        let copy = arrays[10]
        table.insert(7, for: try #require(StorageIdentity(copy)))
        #expect(table[try #require(StorageIdentity(arrays[10]))] == 7)
        #expect(table[try #require(StorageIdentity(arrays[12]))] == 12)
    }
}
