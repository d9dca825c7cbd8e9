import Foundation
import PlistKit
import PlistStore
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Files and folders the store must not trust: links, special files, huge files, a temporary
/// folder someone else made, and the mode of a new file.
@Suite(.timeLimit(.minutes(10)))
struct PreferencesFileSafetyTests {
    func store(_ root: TemporaryRoot, _ errors: Errors) throws -> Preferences {
        try Preferences(
            domain: "d", container: root.container, arguments: [], flushDelay: nil, errorHandler: errors.handler)
    }

    /// A link at the domain file's name or the lock file's: refused with one line, nothing
    /// written through it, the link and its target left as they are.
    @Test(arguments: ["d.plist", "d.plist.lock"])
    func linksAreRefused(_ name: String) throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let folder = try root.container.directory(.preferences)
        let outside = root.path + "/outside.plist"
        let original = try Plist.dictionary(["mine": 1]).bytes(format: .binary)
        try Data(original).write(to: URL(fileURLWithPath: outside))
        try FileManager.default.createSymbolicLink(atPath: folder + "/" + name, withDestinationPath: outside)
        let errors = Errors()
        let store = try store(root, errors)
        store.set(2, forKey: "k")
        let error = try #require(throws: PlistStoreError.self) { try store.synchronize() }
        #expect(error.code == .refusedFile)
        #expect(
            error.description == folder + "/" + name
                + ": is a symbolic link; preferences are never read or written through a link")
        #expect(try Data(contentsOf: URL(fileURLWithPath: outside)) == Data(original))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + name) == outside)
        if name == "d.plist" {
            // Reading through it is refused too: the domain reads as empty, and the error is
            // reported once.
            #expect(store.object(forKey: "mine") == nil)
            #expect(errors.all.map(\.code) == [.refusedFile])
        }
    }

    /// A FIFO (which would block a reader forever), a folder, a 5 GiB sparse file (which would
    /// be read into memory): refused by type or size before anything is read, and left there.
    @Test(arguments: ["fifo", "folder", "huge"])
    func specialAndHugeFilesAreRefused(_ kind: String) throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let path = try root.container.directory(.preferences) + "/d.plist"
        switch kind {
        case "fifo": #expect(mkfifo(path, 0o600) == 0)
        case "folder": try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        default:
            let fd = open(path, O_CREAT | O_WRONLY, 0o600)
            #expect(ftruncate(fd, 5 << 30) == 0)
            close(fd)
        }
        let errors = Errors()
        let store = try store(root, errors)
        #expect(store.object(forKey: "k") == nil)
        let reported = try #require(errors.all.first)
        #expect(reported.code == .refusedFile)
        let expected =
            switch kind {
            case "fifo": "is a FIFO, not a regular file"
            case "folder": "is a folder, not a regular file"
            default: "is 5368709120 bytes, more than the 64 MiB a domain file may hold"
            }
        #expect(reported.message == expected)
        store.set(1, forKey: "k")
        #expect(throws: PlistStoreError.self) { try store.synchronize() }
        #expect(errors.all.count == 1)
        var info = stat()
        #expect(lstat(path, &info) == 0)
        #expect(kind != "huge" || info.st_size == 5 << 30)
        #expect(root.files().filter { $0.hasPrefix("d.plist.corrupt") }.isEmpty)
    }

    /// A new domain file has mode 0600 from the moment its temporary file exists, whatever the
    /// umask (here 0, which would give 0666): watched while a writer in another process writes a
    /// 16 MB domain.
    @Test func newFilesAreOwnerOnlyFromTheirCreation() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let folder = try root.container.directory(.preferences)
        let script = "umask 000 && exec \"$0\" big d 16000000"
        let (process, _, err) = try Built.start(
            "/bin/sh", ["-c", script, Built.path("plist-store-probe")], root: root.path)
        var modes: Set<UInt32> = []
        while process.isRunning {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            where name.hasPrefix(".d.plist.") {
                var info = stat()
                if lstat(folder + "/" + name, &info) == 0 { modes.insert(info.st_mode & 0o777) }
            }
            usleep(200)
        }
        process.waitUntilExit()
        #expect(
            process.terminationStatus == 0,
            "\(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
        #expect(!modes.isEmpty, "the temporary file was never seen")
        #expect(modes.isSubset(of: [0o600]), "modes seen: \(modes.map { String($0, radix: 8) })")
        let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/d.plist")
        #expect(attributes[.posixPermissions] as? Int == 0o600)
    }

    /// The temporary folder is made owner-only, and refused when it is a link (someone planted
    /// it in /tmp) or, when the tests run as root, another user's.
    @Test func temporaryFolderMustBePrivate() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let made = try root.container.directory(.temporary)
        #expect(try FileManager.default.attributesOfItem(atPath: made)[.posixPermissions] as? Int == 0o700)

        // AppContainer(appID:)'s own place: /tmp/<appID>-<uid> without XDG_RUNTIME_DIR.
        let appID = "com.example.plant-\(UUID().uuidString)"
        let container = try AppContainer(appID: appID)
        let temporary = container.location(of: .temporary)
        let elsewhere = root.path + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            atPath: (temporary as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: temporary, withDestinationPath: elsewhere)
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let error = try #require(throws: PlistStoreError.self) { try container.directory(.temporary) }
        #expect(error.code == .refusedFile)
        #expect(error.description == temporary + ": is a symbolic link; a private folder must be a real folder")

        if geteuid() == 0 {
            let foreign = root.path + "/tmp"
            try FileManager.default.removeItem(atPath: foreign)
            try FileManager.default.createDirectory(atPath: foreign, withIntermediateDirectories: false)
            #expect(chown(foreign, 65_534, 65_534) == 0)
            let refused = try #require(throws: PlistStoreError.self) { try root.container.directory(.temporary) }
            #expect(refused.message == "belongs to another user (uid 65534)")
        }
    }
}
