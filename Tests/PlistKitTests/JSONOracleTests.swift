import Foundation
import PlistKit
import TestSupport
import Testing

/// Python's `json` and Foundation's `JSONSerialization` read what our JSON writer writes, and
/// Python reads it to the same values we do.
@Suite(.needsCorpus) struct JSONOracleTests {
    static let corpus = Corpus.validBinary + Corpus.validXML + Corpus.validOpenStep

    /// Every corpus file, in every JSON form (typed and lossy, compact and indented).
    static func documents() throws -> [(name: String, bytes: [UInt8])] {
        var documents: [(String, [UInt8])] = []
        for entry in corpus {
            let value = try Corpus.expected(entry)
            for values in [PlistWriteOptions.JSONValues.typed, .lossy] {
                for indented in [false, true] {
                    let options = PlistWriteOptions(sortsKeys: false, jsonValues: values, indentsJSON: indented)
                    documents.append(
                        ("\(entry.file) \(values) indented: \(indented)", try value.jsonBytes(options: options)))
                }
            }
        }
        return documents
    }

    @Test(.needsPython3) func pythonReadsTheSameValues() throws {
        let documents = try Self.documents()
        // One run of Python for all documents: an array of them in, its own JSON of it out.
        var input: [UInt8] = Array("[".utf8)
        for (index, document) in documents.enumerated() {
            if index > 0 { input += Array(",\n".utf8) }
            input += document.bytes
        }
        input += Array("]".utf8)
        let script = """
            import json, sys
            def constant(name): sys.exit('not JSON: ' + name)
            value = json.load(open('input', encoding='utf-8'), parse_constant=constant)
            sys.stdout.write(json.dumps(value, ensure_ascii=False, allow_nan=False))
            """
        let (stdout, _) = try ExternalTool.run(ExternalTool.python3, ["-c", script], input: input)
        guard case .array(let pythons) = try Plist(json: stdout) else {
            Issue.record("Python did not write an array")
            return
        }
        #expect(pythons.count == documents.count)
        for (document, python) in zip(documents, pythons) {
            let ours = try Plist(json: document.bytes)
            #expect(python.isIdentical(to: ours), "\(document.name): \(python.firstDifference(from: ours) ?? "")")
        }
    }

    @Test func foundationParsesEveryDocument() throws {
        for document in try Self.documents() {
            #expect(throws: Never.self, "\(document.name)") {
                try JSONSerialization.jsonObject(with: Data(document.bytes), options: [.fragmentsAllowed])
            }
        }
    }
}
