import ArgumentParser
import TestSupport
import Testing

@testable import plistconv

/// The quick parser (`QuickCommandLine`) against its reference, ArgumentParser's whole command
/// tree as the route table runs it (`Route`): whatever it accepts parses there to the same
/// command. What it declines goes to ArgumentParser anyway.
@Suite struct QuickCommandLineTests {
    /// The command ArgumentParser parses from `line` (plistconv's spelling), as the quick
    /// parser's result, or nil if it is a usage error or another command.
    static func reference(_ line: CommandSpelling.Line) -> QuickCommandLine.Command? {
        Convert.$spelling.withValue(line.conversion) {
            switch try? PlistConv.parseAsRoot(line.words) {
            case let convert as Convert: (try? convert.conversion()).map { .convert($0) }
            case let lint as Lint: .lint(Linting(files: lint.files, silent: lint.silent, quick: lint.quick))
            case let diff as Diff where diff.textconv: diff.files.first.map { .textconv($0) }
            default: nil
            }
        }
    }

    /// The everyday spellings are taken by the quick parser, and mean what they mean to ArgumentParser.
    @Test(arguments: [
        ["-f", "binary", "in.plist", "out.plist"], ["-f", "xml1", "in.plist"], ["--format", "json", "-r", "a", "b"],
        ["-convert", "binary1", "a.plist", "b.plist"], ["-convert", "xml1", "-o", "-", "a.plist"],
        ["convert", "-f", "openstep", "--stringify", "-e", "txt", "a", "b"],
        ["convert", "-f", "xml", "--stream", "big.plist"],
        ["-i", "in.plist", "-o", "out.plist"], ["-i", "in.plist", "-f", "bin"], ["-f", "xml", "--", "-odd", "-f"],
        ["-f", "xml", "-"], ["lint", "a.plist", "b.plist"], ["-lint", "-s", "a"], ["lint", "--quick", "--", "-x"],
        ["diff", "--textconv", "a.plist"], ["diff", "--textconv", "-"],
    ])
    func takesTheCommonSpellings(arguments: [String]) throws {
        let normalized = CommandSpelling.normalized(arguments)
        let quick = try #require(QuickCommandLine.parse(normalized), "declined \(normalized)")
        #expect(quick == Self.reference(normalized))
    }

    /// Random command lines from words of every kind: valid, misspelt, repeated, misplaced.
    @Test func agreesWithArgumentParserOnRandomCommandLines() throws {
        let words = [
            "-f", "--format", "binary", "xml1", "json", "yaml", "-o", "--output", "-e", "--extension", "-r",
            "--readable",
            "-s", "--silent", "--stringify", "--stream", "--quick", "--", "-", "a.plist", "b.plist", "c", "-x",
            "--format=xml",
            "-rs", "--header", "convert", "lint", "print", "-convert", "-lint", "-i", "-p", "--input-output",
            "--libplist",
            "--max-depth", "3", "--help",
        ]
        var random = SeededRandom(seed: 28)
        var accepted = 0
        for _ in 0..<10_000 {
            let arguments = (0..<Int.random(in: 1...7, using: &random)).map { _ in words.randomElement(using: &random)!
            }
            let normalized = CommandSpelling.normalized(arguments)
            guard let quick = QuickCommandLine.parse(normalized) else { continue }
            accepted += 1
            let reference = Self.reference(normalized)
            #expect(quick == reference, "\(arguments) -> \(normalized)")
        }
        // Enough random lines are taken for the comparison to mean something.
        #expect(accepted > 200)
    }
}
