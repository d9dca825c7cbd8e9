import Foundation
import PlistKit
import Testing

@testable import PlistStore

#if canImport(Glibc)
import Glibc
#endif

@Suite(.timeLimit(.minutes(10)))
struct PreferencesDiskTests {
    @Test func oneBinaryFilePerDomainOwnerOnly() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let store = try Preferences(
            domain: "com.example.app", container: root.container, arguments: [], flushDelay: nil)
        store.set(["x": [1, 2]], forKey: "k")
        try store.synchronize()
        #expect(try root.domain("com.example.app") == ["k": ["x": [1, 2]]])
        #expect(root.files() == ["com.example.app.plist", "com.example.app.plist.lock"])
        let mode = try FileManager.default.attributesOfItem(atPath: root.preferences + "/com.example.app.plist")[
            .posixPermissions]
        #expect(mode as? Int == 0o600)
    }

    /// 10,000 `set` calls spread over about a second make a handful of renames; a flush with
    /// nothing new writes nothing.
    @Test func fewWrites() async throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let store = try Preferences(
            domain: "d", container: root.container, arguments: [], flushDelay: .milliseconds(250))
        _ = try root.container.directory(.preferences)
        let watch = DirectoryWatch(folder: root.preferences)
        defer { watch.close() }
        for batch in 0..<10 {
            for index in 0..<1_000 { store.set(Plist(batch * 1_000 + index), forKey: "k\(index % 100)") }
            try await Task.sleep(for: .milliseconds(100))
        }
        try await Task.sleep(for: .milliseconds(400))
        // The debounced flushes, then whatever is still pending (a flush task may not have had a
        // thread yet while other tests block the pool).
        try store.synchronize()
        let renames = try #require(watch.count(named: ["d.plist"], mask: UInt32(IN_MOVED_TO)))
        #expect(renames >= 1 && renames <= 7, "renames: \(renames)")
        #expect(try root.domain("d").dictionary?["k99"] == 9_999)

        let before = try #require(FileIdentity(path: root.preferences + "/d.plist"))
        try store.synchronize()
        store.set(9_999, forKey: "k99")  // the value it already has
        try store.synchronize()
        #expect(FileIdentity(path: root.preferences + "/d.plist") == before)
        #expect(watch.count(named: ["d.plist"]) == 0)
    }

    @Test func damagedFileIsKeptAsideAndReported() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let folder = try root.container.directory(.preferences)
        let garbage = Data("bplist00 this is not a property list".utf8)
        try garbage.write(to: URL(fileURLWithPath: folder + "/d.plist"))
        let errors = Errors()
        let store = try Preferences(
            domain: "d", container: root.container, arguments: [], flushDelay: nil, errorHandler: errors.handler)
        #expect(store.plist(forKey: "k") == nil)
        let error = try #require(errors.all.first)
        #expect(error.code == .damagedFile)
        let kept = try #require(error.movedTo)
        #expect(kept.hasPrefix(folder + "/d.plist.corrupt-"))
        // The suffix is the UTC time, `YYYYMMDDTHHMMSSZ`.
        #expect(kept.dropFirst(folder.count).wholeMatch(of: /\/d\.plist\.corrupt-\d{8}T\d{6}Z/) != nil, "\(kept)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: kept)) == garbage)
        store.set(1, forKey: "k")
        try store.synchronize()
        #expect(try root.domain("d") == ["k": 1])
        // A top level that is not a dictionary is damage too.
        try Plist.array([1]).write(to: folder + "/e.plist", format: .xml)
        let other = try Preferences(
            domain: "e", container: root.container, arguments: [], flushDelay: nil, errorHandler: errors.handler)
        #expect(other.plist(forKey: "k") == nil)
        #expect(errors.all.count == 2)
        #expect(root.files().filter { $0.hasPrefix("e.plist.corrupt-") }.count == 1)
    }

    @Test func damageFoundAtFlushIsKeptAsideToo() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let errors = Errors()
        let store = try Preferences(
            domain: "d", container: root.container, arguments: [], flushDelay: nil, errorHandler: errors.handler)
        store.set(1, forKey: "a")
        try store.synchronize()
        try Data("<plist><dict><key>".utf8).write(to: URL(fileURLWithPath: root.preferences + "/d.plist"))
        store.set(2, forKey: "b")
        try store.synchronize()
        #expect(errors.all.map(\.code) == [.damagedFile])
        #expect(try root.domain("d") == ["b": 2])
        #expect(root.files().contains { $0.hasPrefix("d.plist.corrupt-") })
    }

    /// A temporary file a killed writer left (no lock held on it) is removed when its slot is
    /// taken (`FileIO.writeAtomically`); another domain's is left alone.
    @Test func staleTemporaryFilesAreRemovedAtFlush() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let folder = try root.container.directory(.preferences)
        try Data("partial".utf8).write(to: URL(fileURLWithPath: folder + "/.d.plist.0.tmp"))
        try Data("someone else's".utf8).write(to: URL(fileURLWithPath: folder + "/.other.plist.1.tmp"))
        let store = try Preferences(domain: "d", container: root.container, arguments: [], flushDelay: nil)
        store.set(1, forKey: "a")
        try store.synchronize()
        #expect(root.files() == [".other.plist.1.tmp", "d.plist", "d.plist.lock"])
    }

    /// Another process's write (here the file replaced as a writer replaces it) is merged key
    /// by key with this process's changes at the next flush.
    @Test func perKeyMergeWithAnotherWriter() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let store = try Preferences(domain: "d", container: root.container, arguments: [], flushDelay: nil)
        store.set(1, forKey: "a")
        store.set("old", forKey: "shared")
        try store.synchronize()
        // Another writer: removes a, adds b, changes shared.
        try Plist.dictionary(["b": 2, "shared": "theirs"]).write(to: root.preferences + "/d.plist", format: .binary)
        store.set("new", forKey: "shared")
        try store.synchronize()
        #expect(try root.domain("d") == ["b": 2, "shared": "new"])
        #expect(store.plist(forKey: "a") == nil, "synchronize brings the other writer's changes in")
        #expect(store.plist(forKey: "b") == 2)
    }

    /// With inotify on the folder, and with the reference that compares file identities at every
    /// look (what other systems use): the same changes. Another process's writes are the file
    /// replaced under the store (as `defaults write` replaces it).
    @Test(arguments: [true, false])
    func observationReportsOwnAndOtherWrites(watchesFolder: Bool) async throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let store = try Preferences(domain: "d", container: root.container, arguments: [], flushDelay: nil)
        let sameDomain = try Preferences(domain: "d", container: root.container, arguments: [], flushDelay: nil)
        var keyChanges = store.changes(forKey: "watched", watchesFolder: watchesFolder).makeAsyncIterator()
        var domainChanges = store.changes().makeAsyncIterator()
        store.set(1, forKey: "watched")
        sameDomain.set(1, forKey: "ignored")
        let own = await keyChanges.next()
        #expect(own == PreferenceChange(domain: "d", key: "watched", value: 1, isExternal: false))
        #expect(await domainChanges.next()?.key == "watched")
        #expect(
            await domainChanges.next() == PreferenceChange(domain: "d", key: "ignored", value: 1, isExternal: false))
        try store.synchronize()
        try Plist.dictionary(["watched": 2, "ignored": 1]).write(to: root.preferences + "/d.plist", format: .binary)
        let external = await keyChanges.next()
        #expect(external == PreferenceChange(domain: "d", key: "watched", value: 2, isExternal: true))
        #expect(store.plist(forKey: "watched") == 2)

        // Another domain, in its own folder under XDG or beside it under a root.
        var suiteChanges = try store.changes(inDomain: "group.shared", watchesFolder: watchesFolder)
            .makeAsyncIterator()
        let writer = try Preferences(domain: "writer", container: root.container, arguments: [], flushDelay: nil)
        try writer.setPersistentDomain(["shared": true], forName: "group.shared")
        #expect(
            await suiteChanges.next()
                == PreferenceChange(domain: "group.shared", key: "shared", value: true, isExternal: false))
        try Plist.dictionary(["shared": false]).write(to: root.preferences + "/group.shared.plist", format: .binary)
        #expect(
            await suiteChanges.next()
                == PreferenceChange(domain: "group.shared", key: "shared", value: false, isExternal: true))
        #expect(throws: PlistStoreError.self) { _ = try store.changes(inDomain: "../x") }
    }

    @Test(
        .enabled(
            if: geteuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            "as root, needs setpriv (util-linux) to write as another user"))
    func writeIntoReadOnlyFolderKeepsOldFile() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        var result = try Built.probe(["write", "d", "old", "3", "0"], root: root.path)
        #expect(result.status == 0, "\(result.stderr)")
        for path in [root.path, root.path + "/Library", root.preferences] { chmod(path, 0o755) }
        chmod(root.preferences + "/d.plist", 0o644)
        chmod(root.preferences + "/d.plist.lock", 0o666)
        chmod(root.preferences, 0o555)
        defer { chmod(root.preferences, 0o755) }
        let probe = Built.path("plist-store-probe")
        let arguments = ["big", "d", "10"]
        if geteuid() == 0 {
            // root writes anywhere: run the writer as nobody.
            result = try Built.run(
                "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", probe] + arguments,
                root: root.path)
        } else {
            result = try Built.run(probe, arguments, root: root.path)
        }
        #expect(result.status == 1)
        #expect(result.stderr.contains("d.plist"), "\(result.stderr)")
        #expect(try root.domain("d") == ["old-0": 0, "old-1": 1, "old-2": 2])
        #expect(root.files() == ["d.plist", "d.plist.lock"])
    }

    @Test func writePastTheFileSizeLimitKeepsOldFile() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        var result = try Built.probe(["write", "d", "old", "3", "0"], root: root.path)
        #expect(result.status == 0, "\(result.stderr)")
        // 16 blocks of 512 or 1,024 bytes: far less than 100,000 bytes.
        let script = "ulimit -f 16 && exec \"$0\" big d 100000"
        result = try Built.run("/bin/sh", ["-c", script, Built.path("plist-store-probe")], root: root.path)
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot write"), "\(result.stderr)")
        #expect(try root.domain("d") == ["old-0": 0, "old-1": 1, "old-2": 2])
        #expect(root.files() == ["d.plist", "d.plist.lock"])
    }
}
