import Dispatch
import Foundation
import PlistKit
import TestSupport
import Testing

@testable import plistconv

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every input through every path `plistconv` reads with, in-process: conversion to XML and to
/// binary in memory, with `--stream` and with the automatic switch (its threshold lowered to 0,
/// so small files take it), `lint`, `lint --quick`, and `extract`/`type` (lazy for binary
/// input) at key paths of the value. The paths must give the same verdict (the same error
/// line, for the same file) and, on success, the same output: the same XML bytes, binary
/// that reads to the same value, the same value and type at every key path.
///
/// On a file the whole-file reader refuses, a lazy lookup reads only the value asked for and
/// the way to it, so it may answer (docs/ARCHITECTURE.md); it must then give what the tree
/// reader gives for that value's own bytes, which `BinaryPlistFileTests` checks.
///
/// Inputs: the fixtures, the shared corpus, hostile files, and mutants of the fixtures (bytes
/// flipped, set, cut, repeated), chosen by a fixed seed. `FuzzPaths` runs the same comparison
/// on the library's paths under libFuzzer.
@Suite(.timeLimit(.minutes(10))) struct PathAgreementTests {
    /// A named input.
    struct Input: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var testDescription: String { name }
    }

    /// The repository's fixtures (valid, invalid, sample and fuzz findings) and the hostile files
    /// of `OneVerdictCLITests`.
    static let fixtures: [Input] = {
        var inputs: [Input] = []
        for folder in ["valid", "invalid", "sample", "fuzz/FuzzBinary", "fuzz/FuzzXML", "fuzz/FuzzOpenStep"] {
            let url = Fixtures.url(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            for name in names.sorted() where !name.hasSuffix(".error") && !name.hasSuffix(".md") {
                guard let bytes = try? Data(contentsOf: url.appendingPathComponent(name)) else { continue }
                inputs.append(Input(name: "\(folder)/\(name)", bytes: [UInt8](bytes)))
            }
        }
        precondition(inputs.count > 30, "Fixtures/ holds the inputs")
        inputs.append(Input(name: "repeated key, shared", bytes: OneVerdictCLITests.repeatedKeyInASharedDictionary))
        inputs.append(
            Input(
                name: "CF$UID",
                bytes: OneVerdictCLITests.bplist([[0xD1, 1, 2], [0x56] + Array("CF$UID".utf8), [0x10, 5]])))
        inputs.append(
            Input(
                name: "replaced value damaged",
                bytes: OneVerdictCLITests.bplist([[0xD2, 1, 1, 2, 3], [0x51, 0x61], [0x0F], [0x10, 1]])))
        inputs.append(
            Input(name: "unused offset", bytes: OneVerdictCLITests.bplist([[0xA1, 1], [0x10, 1]], extra: [200])))
        return inputs
    }()

    /// Mutants of the small fixtures, by a fixed seed.
    static let mutants: [Input] = {
        var random = SeededRandom(seed: 35)
        let sources = fixtures.filter { $0.bytes.count < 4096 && $0.bytes.count > 8 && !$0.name.hasPrefix("invalid/") }
        var inputs: [Input] = []
        for index in 0..<160 {
            let source = sources[index % sources.count]
            var bytes = source.bytes
            let position = Int(random.next() % UInt64(bytes.count))
            let kind = index / sources.count % 4
            switch kind {
            case 0: bytes[position] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            case 1: bytes[position] = [0x00, 0x0F, 0x3C, 0x26, 0xFF, 0xD1, 0x5F, 0xA1][Int(random.next() % 8)]
            case 2: bytes.removeSubrange(position...)
            default: bytes.insert(contentsOf: bytes[position..<min(bytes.count, position + 16)], at: position)
            }
            inputs.append(Input(name: "\(source.name) mutant \(index) (\(kind) at \(position))", bytes: bytes))
        }
        return inputs
    }()

    @Test(arguments: fixtures) func fixturesReadAlikeOnEveryPath(input: Input) throws {
        try Self.compare(input, throughFIFOs: true)
    }

    @Test(arguments: mutants) func mutantsReadAlikeOnEveryPath(input: Input) throws {
        try Self.compare(input)
    }

    /// The corpus files up to 64 KiB (187 of 199; the larger ones take most of the time, and
    /// the corpus suites of each path read them).
    @Test(.needsCorpus, arguments: Corpus.entries.filter { (try? Paths.bytes($0.url).count <= 1 << 16) == true })
    func corpusFilesReadAlikeOnEveryPath(entry: Corpus.Entry) throws {
        try Self.compare(Input(name: entry.file, bytes: try Paths.bytes(entry.url)))
    }

    /// What a conversion gave: its failure, or its output.
    private enum Outcome: Equatable {
        case failed(Conversion.Failure)
        case wrote([UInt8])
    }

    /// Runs `input` through every path and compares what they give; `throughFIFOs`, every
    /// conversion also writes to a FIFO (through the output layer's in-place path), whose reader
    /// must get the same verdict and bytes as the regular file.
    static func compare(
        _ input: Input, throughFIFOs: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        // The name keeps the extension: an empty `.strings` file reads as an empty table.
        let extensionStart = input.name.lastIndex(of: ".") ?? input.name.endIndex
        let path = try folder.write(input.bytes, to: "input" + input.name[extensionStart...].prefix(10))
        let lint = Linting(files: [path]).check(path)
        let quick = Linting(files: [path], quick: true).check(path)
        #expect(quick == lint, "lint --quick \(input.name)", sourceLocation: sourceLocation)

        for format in [OutputFormat.xml, .binary] {
            var outcomes: [(path: String, outcome: Outcome)] = []
            for (label, stream, threshold) in [
                ("in memory", false, Int.max), ("--stream", true, Int.max), ("automatic", false, 0),
            ] {
                var conversion = Conversion(files: [path], format: format)
                conversion.output = folder.path("out")
                conversion.stream = stream
                conversion.streamingThreshold = threshold
                let outcome: Outcome
                if let failure = conversion.convert(path) {
                    outcome = .failed(failure)
                } else {
                    outcome = .wrote(try folder.read("out"))
                    try FileManager.default.removeItem(atPath: folder.path("out"))
                }
                outcomes.append((label, outcome))
                guard throughFIFOs else { continue }
                conversion.output = folder.path("fifo")
                let fifo = try FIFOReader(folder.path("fifo"))
                let failure = conversion.convert(path)
                let read = fifo.finish()
                switch (outcome, failure) {
                case (.wrote(let bytes), nil):
                    // A Bool: Testing's description of two unequal large arrays takes minutes.
                    let same = read == bytes
                    #expect(
                        same, "\(label) \(format) \(input.name) to a FIFO: \(read.count) of \(bytes.count) bytes",
                        sourceLocation: sourceLocation)
                case (.failed(let expected), let failure?):
                    #expect(
                        failure.message == expected.message, "\(label) \(format) \(input.name) to a FIFO",
                        sourceLocation: sourceLocation)
                default:
                    Issue.record("\(label) \(format) \(input.name): \(failure.map(\.message) ?? "wrote") to a FIFO")
                }
            }
            let (_, reference) = outcomes[0]
            for (label, outcome) in outcomes.dropFirst() {
                let context: Comment = "\(label) \(format) \(input.name)"
                switch (reference, outcome) {
                case (.wrote(let expected), .wrote(let output)) where format == .binary:
                    // The streaming writer's bytes differ; the value they hold may not.
                    let value = try Plist(binary: output)
                    #expect(value.isIdentical(to: try Plist(binary: expected)), context, sourceLocation: sourceLocation)
                case (.failed(let expected), .failed(let failure))
                where format == .binary && failure.message.contains("malformed XML: "):
                    // libxml2's push parser words some well-formedness errors otherwise (an
                    // input cut inside a tag: the in-memory parser may read the tag's name so
                    // far), and places them a character or a line apart (docs/ARCHITECTURE.md).
                    #expect(failure.file == expected.file, context, sourceLocation: sourceLocation)
                default:
                    #expect(outcome == reference, context, sourceLocation: sourceLocation)
                }
            }
            // What does not read fails every conversion with the reader's error.
            if let lint {
                #expect(
                    reference == .failed(Conversion.Failure(file: path, message: Terminal.describing(lint))),
                    "\(format) \(input.name): \(lint)", sourceLocation: sourceLocation)
            }
        }
        guard lint == nil else { return }
        try compareKeyPaths(path, input.name, sourceLocation: sourceLocation)
    }

    /// `extract` and `type` (through `KeyPathSource`, lazy for binary input) at key paths of the
    /// value read whole, and at paths that lead nowhere, against the value read whole.
    private static func compareKeyPaths(_ path: String, _ name: String, sourceLocation: SourceLocation) throws {
        let whole = try Terminal.read(path).value
        let source = try KeyPathSource.open(path)
        var paths: [[String]] = [["missing"], ["0", "missing"]]
        collect(whole, [], into: &paths, limit: 160)
        for components in paths {
            let keyPath = PlistKeyPath(components: components)
            let expected = Result { () throws(PlistError) in try whole.value(at: keyPath) }
            let lazy = Result { () throws(PlistError) in try source.value(at: keyPath) }
            switch (expected, lazy) {
            case (.success(let value), .success(let read)):
                #expect(read.isIdentical(to: value), "\(name) \(components)", sourceLocation: sourceLocation)
                #expect(
                    try source.type(at: keyPath) == value.type, "\(name) \(components)",
                    sourceLocation: sourceLocation)
                #expect(
                    try source.rawText(at: keyPath) == Scalar.text(of: value), "\(name) \(components)",
                    sourceLocation: sourceLocation)
            case (.failure(let error), .failure(let lazyError)):
                #expect(lazyError == error, "\(name) \(components)", sourceLocation: sourceLocation)
                let typeError = Result { () throws(PlistError) in try source.type(at: keyPath) }
                #expect(typeError == .failure(error), "\(name) \(components)", sourceLocation: sourceLocation)
            default:
                Issue.record(
                    "\(name) \(components): \(expected) read whole, \(lazy) lazily", sourceLocation: sourceLocation)
            }
        }
    }

    /// The key paths of `value`'s values, depth first, up to `limit` of them.
    private static func collect(_ value: Plist, _ path: [String], into paths: inout [[String]], limit: Int) {
        guard paths.count < limit else { return }
        switch value {
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                paths.append(path + [String(index)])
                collect(element, path + [String(index)], into: &paths, limit: limit)
            }
        case .dictionary(let entries):
            for (key, element) in entries {
                paths.append(path + [key])
                collect(element, path + [key], into: &paths, limit: limit)
            }
        default:
            break
        }
    }
}

/// The reader of a new FIFO at a path, on a thread of its own, which collects what a writer
/// writes until the writer closes it.
private final class FIFOReader: @unchecked Sendable {
    private let fd: Int32
    private let done = DispatchSemaphore(value: 0)
    private let stop = NSLock()
    private var stopping = false
    private var bytes: [UInt8] = []

    /// Makes the FIFO and opens its reading end (non-blocking, so that it is open before any
    /// writer comes, which a writer needs: one without a reader is refused).
    init(_ path: String) throws {
        unlink(path)
        guard mkfifo(path, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
        fd = open(path, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { throw CocoaError(.fileReadUnknown) }
        Thread { [self] in collect() }.start()
    }

    /// Waits until a writer came and went (or, when none came, until `finish` is called).
    private func collect() {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var writerCame = false
        while true {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, 50)
            if ready <= 0 {
                if !writerCame, stop.withLock({ stopping }) { break }
                continue
            }
            let count = read(fd, &buffer, buffer.count)
            if count > 0 {
                writerCame = true
                bytes += buffer[0..<count]
            } else if count == 0 {
                // The end: a writer closed it (poll reports no end before one has come).
                break
            } else if errno != EAGAIN && errno != EINTR {
                break
            }
        }
        done.signal()
    }

    /// What the writer wrote, once it is done; closes and removes the FIFO.
    func finish() -> [UInt8] {
        stop.withLock { stopping = true }
        done.wait()
        close(fd)
        return bytes
    }
}
