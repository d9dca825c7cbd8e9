import Foundation
import PlistKit
import TestSupport
import Testing

/// The Swift output of every corpus file of at most 64 KB of Swift compiles as it is and, run,
/// holds the value it was made from.
@Suite struct SourceCodeTests {
    /// Every valid corpus file with an oracle dump, in every format.
    static let files = Corpus.validBinary + Corpus.validXML + Corpus.validOpenStep

    /// The largest Swift source compiled, in bytes.
    static let largestCompiled = 64 << 10

    /// What the generated program prints for each value: types and exact bits, keys sorted.
    static let dumper = """
        import Foundation

        func canonical(_ value: Any) -> String {
            switch value {
            case let bool as Bool: return "b:\\(bool)"
            case let string as String: return "s:" + string.debugDescription
            case let int as Int: return "i:\\(int)"
            case let uint as UInt64: return "i:\\(uint)"
            case let real as Double: return "r:\\(real.bitPattern)"
            case let date as Date: return "d:\\(date.timeIntervalSinceReferenceDate.bitPattern)"
            case let data as Data: return "x:" + data.map { String($0) }.joined(separator: ",")
            case let array as [Any]: return "[" + array.map(canonical).joined(separator: ";") + "]"
            case let dictionary as [String: Any]:
                return "{" + dictionary.keys.sorted().map { $0.debugDescription + "=" + canonical(dictionary[$0]!) }
                    .joined(separator: ";") + "}"
            default: return "?\\(type(of: value))"
            }
        }

        """

    static func canonical(_ value: Plist) -> String {
        switch value {
        case .bool(let bool): "b:\(bool)"
        case .string(let string): "s:" + string.debugDescription
        case .integer(let integer): "i:\(integer)"
        case .uid(let uid): "i:\(uid)"
        case .real(let real): "r:\(real.bitPattern)"
        case .date(let date): "d:\(date.timeIntervalSinceReferenceDate.bitPattern)"
        case .data(let data): "x:" + data.map { String($0) }.joined(separator: ",")
        case .array(let elements): "[" + elements.map(canonical).joined(separator: ";") + "]"
        case .dictionary(let entries):
            "{"
                + entries.keys.sorted().map { $0.debugDescription + "=" + canonical(entries[$0]!) }.joined(
                    separator: ";")
                + "}"
        }
    }

    @Test(.needsCorpus, .needsSwiftc)
    func swiftOutputCompilesAndHoldsTheValue() throws {
        #expect(Self.files.count >= 140, "expected the shared corpus")
        // One file per value (top-level code with huge literals type-checks far slower than
        // global declarations in files of their own), and a main file that prints them all.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plist-swift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var sources: [String] = []
        var expected: [String] = []
        var compiled: [Corpus.Entry] = []
        var seen = Set<String>()
        for entry in Self.files {
            let value = try Corpus.expected(entry)
            // The same value read from another format makes the same Swift: it is compiled once
            // (the corpus holds 148 files of 125 values; swiftc takes minutes for them).
            let canonical = Self.canonical(value)
            guard seen.insert(canonical).inserted else { continue }
            let index = compiled.count
            let swift = try value.swiftSource(name: "value\(index)", fileName: entry.file)
            // Values of more than 64 KB of Swift (14 of the corpus's, 4.9 of its 5.1 MB) are the
            // same literals at a larger size, which took swiftc minutes: not compiled.
            guard swift.count <= Self.largestCompiled else { continue }
            let source = folder.appendingPathComponent("value\(index).swift")
            try Data(swift).write(to: source)
            sources.append(source.path)
            expected.append(canonical)
            compiled.append(entry)
        }
        #expect(compiled.count >= 90, "most corpus values are compiled (\(compiled.count))")
        let main = folder.appendingPathComponent("main.swift")
        try Data((Self.dumper + (0..<compiled.count).map { "print(canonical(value\($0)))\n" }.joined()).utf8).write(
            to: main)
        let program = folder.appendingPathComponent("program")
        _ = try ExternalTool.run(
            Oracles.swiftc, ["-Onone", "-module-name", "Values", "-o", program.path, main.path] + sources,
            input: [])
        let (stdout, _) = try ExternalTool.run(program, [], input: [])
        let lines = String(decoding: stdout, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        try #require(lines.count > compiled.count, "the program printed \(lines.count) lines")
        for (index, entry) in compiled.enumerated() {
            #expect(lines[index] == expected[index], "\(entry.file)")
        }
    }

    @Test(arguments: [
        ("Info.plist", "Info"), ("my-file.name.plist", "my_file_name"), ("1.plist", "_1"), ("dir/ünï.plist", "_n_"),
        (".hidden", "_hidden"), ("noext", "noext"),
    ])
    func identifiers(file: String, identifier: String) {
        #expect(Plist.sourceIdentifier(fromFileName: file) == identifier)
    }

    @Test func objectiveC() throws {
        let value: Plist = [
            "s": "a\"b?\n", "i": -5, "u": .integer(PlistInteger(UInt64.max)), "r": 1.0, "b": true, "a": [[:]],
        ]
        let text = String(decoding: try value.objcSource(name: "Info", fileName: "Info.plist"), as: UTF8.self)
        #expect(
            text == """
                /// Generated from Info.plist by plistconv.
                #import <Foundation/Foundation.h>

                NSDictionary * const Info = @{
                    @"s" : @"a\\"b\\?\\n",
                    @"i" : @-5,
                    @"u" : @18446744073709551615ULL,
                    @"r" : @1.0,
                    @"b" : @YES,
                    @"a" : @[
                        @{
                        },
                    ],
                };

                """)
        #expect(
            String(decoding: value.objcHeader(name: "Info", fileName: "Info.plist"), as: UTF8.self).hasSuffix(
                "extern NSDictionary * const Info;\n"))
        #expect(
            throws: PlistError(.unrepresentable(keyPath: "x.0", type: "date", format: "an Objective-C literal"), at: 0)
        ) {
            try Plist.dictionary(["x": [.date(Date())]]).objcSource(name: "x", fileName: "x")
        }
    }
}
