import Foundation
import PlistKit
import TestSupport
import Testing

/// XML → binary → XML over the whole XML corpus: the value survives exactly, and so do the
/// XML bytes we write for it.
@Suite(.needsCorpus) struct XMLRoundTripTests {
    @Test(arguments: Corpus.validXML)
    func xmlToBinaryToXMLIsExact(entry: Corpus.Entry) throws {
        let value = try Plist(xml: try Paths.bytes(entry.url))
        let throughBinary = try Plist(binary: try value.binaryBytes())
        #expect(throughBinary.isIdentical(to: value), "\(entry.file)")
        let xml = try value.xmlBytes()
        #expect(try throughBinary.xmlBytes() == xml)
        #expect(try Plist(xml: xml) == value, "our XML reads back to the same value")
        #expect(try Plist(xml: try value.xmlBytes(options: PlistWriteOptions(sortsKeys: false))).isIdentical(to: value))
    }
}
