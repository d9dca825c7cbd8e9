import Foundation
import PlistKit
import TestSupport
import Testing

/// `plistconv -f binary --stream` converts XML as it reads it: the output reads back to the
/// in-memory conversion's value, a truncated file fails with its line and column and leaves no
/// output, and memory stays far below the in-memory conversion's on a generated file; without
/// `--stream`, a file streams from the size threshold on.
@Suite struct XMLStreamCLITests {
    @Test func streamingReadsBackAsTheInMemoryConversion() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let folderPath = Fixtures.url("valid").path
        let names = try FileManager.default.contentsOfDirectory(atPath: folderPath).filter { $0.contains(".xml.") }
        #expect(names.count >= 3)
        for (index, name) in names.sorted().map({ folderPath + "/" + $0 }).enumerated() {
            let streamed = try Tool.run(["-f", "binary", "--stream", name, folder.path("s\(index).plist")])
            let inMemory = try Tool.run(["-f", "binary", name, folder.path("m\(index).plist")])
            #expect(streamed.status == inMemory.status, "\(name): \(streamed) \(inMemory)")
            guard streamed.status == 0 else { continue }
            let back = try Plist(binary: try folder.read("s\(index).plist"))
            #expect(back.isIdentical(to: try Plist(binary: try folder.read("m\(index).plist"))), "\(name)")
            let toStdout = try Tool.run(["convert", "-f", "binary", "--stream", "-o", "-", name])
            #expect(toStdout.stdout == (try folder.read("s\(index).plist")), "\(name)")
        }
    }

    /// A truncated file fails at its end with line and column; no partial output is left, and
    /// an existing output keeps its bytes.
    @Test func truncatedInputLeavesNoOutput() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        var body = ""
        for index in 0..<5000 { body += "\t<key>k\(index)</key>\n\t<string>value \(index)</string>\n" }
        let whole = Array(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\(body)</dict>\n</plist>\n"
                .utf8)
        let input = try folder.write(Array(whole.prefix(whole.count - 40)), to: "cut.plist")
        let run = try Tool.run(["-f", "binary", "--stream", input, folder.path("out.plist")])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("plistconv: \(input): 10003:"), "\(run)")
        #expect(run.stderr.contains("Premature end of data in tag"), "\(run)")
        try folder.write(Array("old".utf8), to: "old.plist")
        let again = try Tool.run(["-f", "binary", "--stream", input, folder.path("old.plist")])
        #expect(again.status == 1)
        #expect(try folder.names() == ["cut.plist", "old.plist"])
        #expect(try folder.read("old.plist") == Array("old".utf8))

        // What cannot stream is converted in memory, with the same result.
        let json = try folder.write(Array("{\"a\": 1}".utf8), to: "a.json")
        let notXML = try Tool.run(["-f", "binary", "--stream", json, folder.path("j.plist")])
        #expect(notXML.status == 0, "\(notXML)")
        #expect(try Plist(binary: try folder.read("j.plist")) == ["a": 1])
    }

    @Test(.needsPython3, .timeLimit(.minutes(10)))
    func streamingRunsInBoundedMemory() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        // Written by the benchmarks' generator (Benchmarks/large-inputs.py), scaled down.
        let big = folder.path("big.xml")
        #expect(try LargeInputs.write("xml", to: big, records: 20000, blob: 900, depth: 100) == 0)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: big)[.size] as? Int)
        #expect(size > 25_000_000)
        let small = try folder.write(try Plist.dictionary(["rec1": ["name": "one"]]).xmlBytes(), to: "small.xml")

        let baseline = try PeakRSS.run(
            ["-f", "binary", "--stream", small, folder.path("small.plist")], output: folder.path("o0"))
        let streamed = try PeakRSS.run(
            ["-f", "binary", "--stream", big, folder.path("s.plist")], output: folder.path("o1"))
        let inMemory = try PeakRSS.run(["-f", "binary", big, folder.path("m.plist")], output: folder.path("o2"))
        #expect(
            baseline.status == 0 && streamed.status == 0 && inMemory.status == 0, "\(baseline) \(streamed) \(inMemory)")
        let back = try Plist(binary: try folder.read("s.plist"))
        #expect(back.isIdentical(to: try Plist(binary: try folder.read("m.plist"))))
        #expect(
            streamed.peakBytes - baseline.peakBytes < size / 2,
            "streamed \(streamed), baseline \(baseline), file \(size)")
        #expect(inMemory.peakBytes - baseline.peakBytes > size, "in memory \(inMemory), baseline \(baseline)")
    }

    /// Without `--stream`, an XML file of 64 MiB (`Conversion.streamingThreshold`) or more converts
    /// as it is read, and a smaller one in memory: one generated document, padded with white
    /// space after its end to one byte under the threshold and to the threshold, told apart by
    /// the converter's peak memory against the file's size.
    @Test(.needsPython3, .timeLimit(.minutes(10)))
    func streamsFromTheSizeThresholdOn() throws {
        let threshold = 64 << 20
        let folder = try TempFolder()
        defer { folder.remove() }
        let generated = folder.path("generated.xml")
        #expect(try LargeInputs.write("xml", to: generated, records: 68000, depth: 10) == 0)
        let document = try folder.read("generated.xml")
        try #require(document.count < threshold - 1 && document.count > threshold * 9 / 10)
        let padding = [UInt8](repeating: UInt8(ascii: "\n"), count: threshold - document.count)
        let under = try folder.write(document + padding.dropFirst(), to: "under.xml")
        let at = try folder.write(document + padding, to: "at.xml")
        let small = try folder.write(try Plist.dictionary(["rec1": ["name": "one"]]).xmlBytes(), to: "small.xml")

        let baseline = try PeakRSS.run(["-f", "binary", small, folder.path("small.plist")], output: folder.path("o0"))
        let inMemory = try PeakRSS.run(["-f", "binary", under, folder.path("under.plist")], output: folder.path("o1"))
        let streamed = try PeakRSS.run(["-f", "binary", at, folder.path("at.plist")], output: folder.path("o2"))
        #expect(
            baseline.status == 0 && inMemory.status == 0 && streamed.status == 0, "\(baseline) \(inMemory) \(streamed)")
        #expect(inMemory.peakBytes - baseline.peakBytes > threshold, "in memory \(inMemory), baseline \(baseline)")
        #expect(streamed.peakBytes - baseline.peakBytes < threshold / 2, "streamed \(streamed), baseline \(baseline)")
        let back = try Plist(binary: try folder.read("at.plist"))
        #expect(back.isIdentical(to: try Plist(binary: try folder.read("under.plist"))))
        #expect(back.dictionary?.count == 68_001)

        // A reference to a control character, as the XML writer spells one: libxml2's push parser
        // refuses it, so the file is converted in memory instead, and reads back with it.
        let marked = Array("<string>&#8;".utf8)
        let first = try #require(document.firstRange(of: Array("<string>".utf8)))
        let withReference =
            Array(document[..<first.lowerBound]) + marked + document[first.upperBound...]
            + padding.dropFirst(marked.count - 8)
        try #require(withReference.count == threshold)
        let referenced = try folder.write(withReference, to: "reference.xml")
        let converted = try Tool.run(["-f", "binary", referenced, folder.path("reference.plist")])
        #expect(converted.status == 0, "\(converted)")
        let read = try Plist(binary: try folder.read("reference.plist"))
        #expect(read.dictionary?.count == 68_001)
        #expect(try Plist(xml: withReference).isIdentical(to: read))
    }
}
