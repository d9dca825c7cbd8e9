import Foundation
import PlistKit
import SystemPackage
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading files (small and memory-mapped), atomic writes, and format dispatch.
@Suite struct FileTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("plistkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    private func folderContents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func writesAndReadsBackSmallAndLargeFiles() throws {
        let small: Plist = ["name": "James", "kids": ["Nicolas", "Juliana"], "age": 40]
        try small.write(to: path("small.plist"), format: .binary)
        #expect(try Plist(contentsOf: path("small.plist")) == small)

        let large = Plist.array((0..<300_000).map { .string("value \($0)") })
        try large.write(to: path("large.plist"), format: .binary)
        let size = try FileManager.default.attributesOfItem(atPath: path("large.plist"))[.size] as? Int ?? 0
        #expect(size > 1 << 20, "large enough to be memory-mapped")
        #expect(try Plist(contentsOf: path("large.plist")) == large)
        #expect(try folderContents() == ["large.plist", "small.plist"])
    }

    @Test func filesAreNamedByPathURLOrFilePath() throws {
        let value: Plist = ["name": "James", "age": 40]
        let url = folder.appendingPathComponent("by url.plist")
        try value.write(to: url, format: .xml)
        #expect(try Plist(contentsOf: url) == value)
        #expect(try Plist.read(contentsOf: url).format == .xml)
        #expect(try Plist(contentsOf: url.path) == value)

        let filePath = FilePath(path("by file path.plist"))
        try value.write(to: filePath, format: .binary)
        #expect(try Plist(contentsOf: filePath) == value)
        #expect(try Plist.read(contentsOf: filePath).format == .binary)

        try PlistFile.write(Array("(1)".utf8), to: folder.appendingPathComponent("raw.plist"))
        #expect(try Plist(contentsOf: path("raw.plist")) == ["1"])

        struct Person: Codable, Equatable { var name: String }
        let encoder = PlistEncoder()
        encoder.outputFormat = .openStep
        try encoder.encode(Person(name: "Ada"), to: folder.appendingPathComponent("person.plist"))
        try encoder.encode(Person(name: "Bea"), to: FilePath(path("person2.plist")))
        #expect(try Plist(contentsOf: path("person.plist")) == ["name": "Ada"])
        #expect(try Plist(contentsOf: path("person2.plist")) == ["name": "Bea"])
    }

    @Test func aURLThatIsNotAFileIsRefused() throws {
        let url = try #require(URL(string: "https://example.com/Info.plist"))
        let error = try #require(throws: PlistError.self) { try Plist(contentsOf: url) }
        #expect(error.code == .io)
        #expect(error.byteOffset == nil)
        #expect(error.description == "https://example.com/Info.plist is not a file URL")
    }

    /// The temporary file of an atomic write has its final permissions before anything is
    /// written to it: the old file's (0666 here, which a umask such as 022 would strip at
    /// creation), or for a new file the mode asked for.
    @Test func theTemporaryFileHasItsFinalModeFromTheStart() throws {
        func modeWhileWriting(_ file: String, newFileMode: FilePermissions?) throws -> FilePermissions? {
            var seen: FilePermissions?
            try FileIO.writeAtomically(to: file, newFileMode: newFileMode) { fd throws(PlistError) in
                seen = try? FileIO.status(of: fd).permissions
                do throws(Errno) { try FileIO.write(Array("new".utf8), to: fd) } catch { throw PlistError(error) }
            }
            return seen
        }
        let fresh = path("fresh.plist")
        #expect(try modeWhileWriting(fresh, newFileMode: .ownerReadWrite) == .ownerReadWrite)
        #expect(try FileIO.status(atPath: fresh).permissions == .ownerReadWrite)

        let old = path("old.plist")
        FileManager.default.createFile(atPath: old, contents: Data("old".utf8))
        chmod(old, 0o666)
        #expect(try modeWhileWriting(old, newFileMode: .ownerReadWrite) == FilePermissions(rawValue: 0o666))
        #expect(try FileIO.status(atPath: old).permissions == FilePermissions(rawValue: 0o666))
        #expect(try folderContents() == ["fresh.plist", "old.plist"])
    }

    /// A system call interrupted by a signal (`EINTR`) is made again; any other failure is
    /// thrown at once, and reads as the system's text for it.
    @Test func interruptedCallsAreMadeAgainAndOtherFailuresGiveTheSystemsText() throws {
        var calls = 0
        let result = try FileIO.retrying { () -> Int32 in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7 && calls == 3)
        calls = 0
        #expect(throws: Errno.noSuchFileOrDirectory) {
            try FileIO.retrying { () -> Int32 in
                calls += 1
                errno = ENOENT
                return -1
            }
        }
        #expect(calls == 1)
        let text = String(cString: strerror(ENOENT))
        #expect(PlistError(Errno.noSuchFileOrDirectory) == PlistError(.io(reason: text), at: 0))
        #expect(throws: PlistError(.io(reason: text), at: 0)) { try Plist(contentsOf: path("missing.plist")) }
    }

    @Test func replacingKeepsPermissionsAndLeavesNoTemporaryFile() throws {
        let file = path("settings.plist")
        FileManager.default.createFile(atPath: file, contents: Data("old".utf8), attributes: [.posixPermissions: 0o640])
        try (["new": true] as Plist).write(to: file, format: .binary)
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect(attributes[.posixPermissions] as? Int == 0o640)
        #expect(try Plist(contentsOf: file) == ["new": true])
        #expect(try folderContents() == ["settings.plist"])
    }

    /// A temporary file no writer holds (left by a killed one) is removed by the next write; one
    /// that a live writer holds (here, this test's lock) is left, and the write takes the next slot.
    @Test func temporaryFilesOfGoneWritersAreRemovedAndLiveOnesKept() throws {
        let file = path("out.plist")
        FileManager.default.createFile(atPath: path(".out.plist.0.tmp"), contents: Data("abandoned".utf8))
        FileManager.default.createFile(atPath: path(".out.plist.1.tmp"), contents: Data("abandoned".utf8))
        try (["a": 1] as Plist).write(to: file, format: .binary)
        #expect(try folderContents() == [".out.plist.1.tmp", "out.plist"])

        let held = open(path(".out.plist.1.tmp"), O_RDONLY)
        try #require(held >= 0)
        defer { close(held) }
        try #require(flock(held, LOCK_EX) == 0)
        try FileManager.default.moveItem(atPath: path(".out.plist.1.tmp"), toPath: path(".out.plist.0.tmp"))
        try (["a": 2] as Plist).write(to: file, format: .binary)
        #expect(try folderContents() == [".out.plist.0.tmp", "out.plist"])
        #expect(try Plist(contentsOf: file) == ["a": 2])
        #expect(FileManager.default.contents(atPath: path(".out.plist.0.tmp")) == Data("abandoned".utf8))
    }

    @Test func aFailedWriteLeavesTheOldFileIntact() throws {
        let file = path("keep.plist")
        FileManager.default.createFile(atPath: file, contents: Data("old".utf8))
        #expect(throws: PlistError(.unrepresentable(keyPath: "a", type: "integer", format: "OpenStep"), at: 0)) {
            try (["a": 1] as Plist).write(to: file, format: .openStep)
        }
        var deep: Plist = 1
        for _ in 0..<600 { deep = [deep] }
        #expect(throws: PlistError(.tooDeep(limit: 512), at: 0)) { try deep.write(to: file, format: .binary) }
        #expect(FileManager.default.contents(atPath: file) == Data("old".utf8))
        #expect(try folderContents() == ["keep.plist"])
    }

    @Test func writingThroughASymbolicLinkReplacesItsTarget() throws {
        let target = path("target.plist")
        FileManager.default.createFile(atPath: target, contents: Data("old".utf8))
        try FileManager.default.createSymbolicLink(atPath: path("link.plist"), withDestinationPath: target)
        try (["via": "link"] as Plist).write(to: path("link.plist"), format: .binary)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path("link.plist")) == target)
        #expect(try Plist(contentsOf: target) == ["via": "link"])
    }

    @Test func writingThroughADanglingLinkCreatesItsTarget() throws {
        try FileManager.default.createSymbolicLink(atPath: path("dangling.plist"), withDestinationPath: "made.plist")
        try (["made": true] as Plist).write(to: path("dangling.plist"), format: .binary)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path("dangling.plist")) == "made.plist")
        #expect(try Plist(contentsOf: path("made.plist")) == ["made": true])
    }

    @Test func reportsSystemErrors() {
        #expect(throws: PlistError(.io(reason: "No such file or directory"), at: 0)) {
            try Plist(contentsOf: path("missing.plist"))
        }
        #expect(throws: PlistError(.io(reason: "No such file or directory"), at: 0)) {
            try (["a": 1] as Plist).write(to: path("no/such/folder.plist"), format: .binary)
        }
        #expect(throws: PlistError(.io(reason: "Is a directory"), at: 0)) { try Plist(contentsOf: folder.path) }
    }

    @Test func readsFromAFileDescriptor() throws {
        let file = path("fd.plist")
        try (["fd": 3] as Plist).write(to: file, format: .binary)
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: file))
        defer { try? handle.close() }
        #expect(try Plist(fileDescriptor: handle.fileDescriptor) == ["fd": 3])
    }

    @Test func dispatchesOnTheDetectedFormat() throws {
        #expect(throws: PlistError(.emptyInput, at: 0)) { try Plist(bytes: [UInt8]()) }
        #expect(throws: PlistError(.unknownFormat, at: 0)) { try Plist(bytes: [0x7F]) }
        #expect(try Plist(bytes: Array("<?xml version=\"1.0\"?><plist><true/></plist>".utf8)) == true)
        #expect(try Plist(bytes: Array("{ a = b; }".utf8)) == ["a": "b"])
        let value: Plist = ["k": [1, 2]]
        #expect(try Plist(bytes: Data(value.bytes(format: .binary))) == value)
    }
}
