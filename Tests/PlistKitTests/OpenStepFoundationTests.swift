import Foundation
import PlistKit
import TestSupport
import Testing

/// Foundation's OpenStep reader (CoreFoundation's, on Linux) reads what our writer writes to the
/// same value. Foundation cannot write OpenStep on Linux, so this is the only direction to check.
@Suite struct OpenStepFoundationTests {
    private func foundationRead(_ bytes: [UInt8]) throws -> Plist {
        var format = PropertyListSerialization.PropertyListFormat.binary
        let object = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: &format)
        #expect(format == .openStep)
        return try FoundationGraph.plist(from: object)
    }

    /// Every OpenStep and `.strings` corpus file that is plain OpenStep (no GNUstep typed values,
    /// which CoreFoundation does not read), written by us, reads in Foundation to the oracle's value.
    @Test(
        .needsCorpus,
        arguments: Corpus.nonEmpty(Corpus.validOpenStep.filter { !$0.note.contains("GNUstep") }, "plain OpenStep"))
    func foundationReadsOurOpenStep(entry: Corpus.Entry) throws {
        let expected = try Corpus.expected(entry)
        #expect(
            try foundationRead(try expected.openStepBytes(options: .init(sortsKeys: false))) == expected,
            "\(entry.file)")
    }

    @Test func foundationReadsOurStringsFile() throws {
        let value: Plist = ["Hello": "Bonjour", "quote \"\\": "line\nbreak\ttab", "日本": "語 😀", "": "empty"]
        #expect(try foundationRead(try value.stringsBytes()) == value)
    }

    /// Every string shape the writer treats specially, in one file.
    @Test func foundationReadsOurEscapes() throws {
        let value: Plist = [
            "plain": "a_$/:.-0", "empty": "", "space": "a b", "plus": "a+b", "comment": "a//b", "block": "/*x*/",
            "controls": "\u{07}\u{08}\u{0C}\u{0B}\u{01}\u{7F}\r\n\t", "quotes": "'\"", "unicode": "é東京😀",
            "data": .data(Data((0..<37).map { UInt8($0 * 7 & 0xFF) })), "nested": ["a", ["b": ["c"]], []],
        ]
        #expect(try foundationRead(try value.openStepBytes()) == value)
    }
}
