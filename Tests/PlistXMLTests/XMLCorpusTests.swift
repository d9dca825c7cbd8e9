import Foundation
import PlistCore
import PlistXML
import TestSupport
import Testing

/// Every XML file of the shared corpus reads to exactly the oracle's value, and every invalid
/// XML file is rejected with its line and column.
@Suite(.needsCorpus) struct XMLCorpusTests {
    @Test func corpusIsPresent() {
        #expect(Corpus.validXML.count >= 50, "expected the shared corpus at \(Paths.corpus.path)")
        #expect(Corpus.invalidXML.count >= 15)
    }

    @Test(arguments: Corpus.validXML)
    func readsLikeTheOracle(entry: Corpus.Entry) throws {
        let value = try Plist(xml: try Paths.bytes(entry.url))
        #expect(value.isIdentical(to: try Corpus.expected(entry)), "\(entry.file): \(entry.note)")
    }

    /// The exact message for each invalid XML file of the corpus.
    static let invalidMessages: [String: String] = [
        "cpython__XML_PLIST_WITH_ENTITY.plist":
            "3:38: DTD declarations (internal subsets, entities) are not allowed in property lists",
        "ddplist__github-issue76-xml.plist": "6:26: <integer> holds \"42xy\", which is not a valid integer",
        "goplist__unusual-s05.plist": "3:15: malformed XML: StartTag: invalid element name",
        "goplist__unusual-s06.plist": "3:18: malformed XML: EntityRef: expecting ';'",
        "goplist__unusual-s07.plist": "2:1: malformed XML: Unescaped '<' not allowed in attributes values",
        "goplist__unusual-s08.plist": "7:1: malformed XML: Extra content at the end of the document",
        "goplist__unusual-s09.plist": "1:16: malformed XML: DOCTYPE improperly terminated",
        "goplist__unusual-s10.plist": "4:13: malformed XML: error parsing attribute name",
        "libplist__amp.plist": "3:18: malformed XML: EntityRef: expecting ';'",
        "libplist__fuzz-xplist-57990761.plist": "45:2: malformed XML: Premature end of data in tag dict line 37",
        "libplist__fuzz-xplist-60475099.plist":
            "4347:9: containers are nested deeper than the limit of 512 (raise maxDepth to allow more)",
        "libplist__fuzz-xplist-60564121.plist": "3:41: the key \"cdata&key\" has no value",
        "libplist__fuzz-xplist-94276cf6.plist": "26:21: <integer> holds \"\", which is not a valid integer",
        "libplist__invalid_tag.plist": "3:15: malformed XML: StartTag: invalid element name",
        "rustplist__xml_entity_error.plist": "4:11: text outside of any value element",
        "rustplist__xml_error.plist": "17:2: malformed XML: expected '>'",
    ]

    @Test(arguments: Corpus.invalidXML)
    func rejectsInvalidFile(entry: Corpus.Entry) throws {
        let name = String(entry.file.dropFirst("invalid/".count))
        let expected = try #require(Self.invalidMessages[name], "no expected message for \(name)")
        let error = try #require(throws: PlistError.self) { try Plist(xml: try Paths.bytes(entry.url)) }
        #expect(error.description == expected)
        #expect(error.position != nil)
    }
}
