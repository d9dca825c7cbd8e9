import Foundation
import PlistKit
import PlistStore
import Testing

@Suite(.timeLimit(.minutes(10)))
struct AppContainerTests {
    @Test func rootLaysOutTheIOSSandbox() throws {
        let container = AppContainer(root: "/data/app/")
        #expect(container.location(of: .documents) == "/data/app/Documents")
        #expect(container.location(of: .preferences) == "/data/app/Library/Preferences")
        #expect(container.location(of: .caches) == "/data/app/Library/Caches")
        #expect(container.location(of: .applicationSupport) == "/data/app/Library/Application Support")
        #expect(container.location(of: .temporary) == "/data/app/tmp")
    }

    @Test func directoriesAreMadeOnFirstUseOwnerOnly() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let container = root.container
        #expect(!FileManager.default.fileExists(atPath: root.path + "/Library"))
        let caches = try container.directory(.caches)
        for path in [root.path + "/Library", caches] {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? Int) == 0o700, "\(path)")
        }
        let file = try container.path("images/2026/a.png", in: .documents)
        #expect(file == root.path + "/Documents/images/2026/a.png")
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: root.path + "/Documents/images/2026", isDirectory: &isFolder))
        #expect(isFolder.boolValue)
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    @Test(arguments: ["../escape", "a/../../b", "/etc/passwd", "a\u{0}b", "", ".", "./"])
    func pathsThatLeaveTheContainerAreRefused(_ path: String) throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        #expect {
            _ = try root.container.path(path, in: .documents)
        } throws: { error in
            (error as? PlistStoreError)?.code == .invalidName
        }
        #expect(!FileManager.default.fileExists(atPath: root.path + "/Documents"))
    }

    @Test(arguments: ["", "..", "a/b", "a\u{0}"])
    func badAppIDsAndDomainsAreRefused(_ name: String) throws {
        #expect(throws: PlistStoreError.self) { _ = try AppContainer(appID: name) }
        #expect(throws: PlistStoreError.self) {
            _ = try Preferences(domain: name, container: AppContainer(root: "/nonexistent"), arguments: [])
        }
    }

    /// XDG in a process of its own, with its own environment.
    @Test func appIDFollowsXDGAndTheRootVariable() throws {
        func paths(_ environment: [String: String]) throws -> [String] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Built.path("plist-store-probe"))
            process.arguments = ["paths", "com.example.notes"]
            process.environment = environment
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        let id = "com.example.notes"
        let xdg = try paths([
            "HOME": "/home/u", "XDG_CONFIG_HOME": "/c", "XDG_DATA_HOME": "/d", "XDG_CACHE_HOME": "/k",
            "XDG_RUNTIME_DIR": "/run/user/7",
        ])
        #expect(xdg == ["/d/\(id)/Documents", "/c/\(id)", "/k/\(id)", "/d/\(id)", "/run/user/7/\(id)"])
        // Relative XDG values are ignored, as the specification says.
        let defaults = try paths(["HOME": "/home/u", "XDG_CONFIG_HOME": "relative", "XDG_RUNTIME_DIR": "tmp"])
        #expect(
            defaults == [
                "/home/u/.local/share/\(id)/Documents", "/home/u/.config/\(id)", "/home/u/.cache/\(id)",
                "/home/u/.local/share/\(id)", "/tmp/\(id)-\(getuid())",
            ])
        let rooted = try paths(["HOME": "/home/u", "PLIST_CONTAINER_ROOT": "/srv/app", "XDG_CONFIG_HOME": "/c"])
        #expect(rooted == AppContainer.Directory.allCases.map { AppContainer(root: "/srv/app").location(of: $0) })
    }

    /// Under XDG, a suite and the global domain live where every app of the user finds them
    /// (`$XDG_CONFIG_HOME/<domain>`), and `plistconv defaults` reaches them without a root.
    @Test func xdgSuitesAndTheGlobalDomainAreShared() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let environment = root.xdgEnvironment
        func run(_ executable: String, _ arguments: [String]) throws -> String {
            let result = try Built.run(Built.path(executable), arguments, environment: environment)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout
        }
        _ = try run("plist-store-probe", ["suite", "com.example.a", "group.example.shared", "k", "from a"])
        _ = try run("plist-store-probe", ["suite", "com.example.a", Preferences.globalDomain, "g", "global"])
        #expect(try run("plist-store-probe", ["lookup", "com.example.b", "group.example.shared", "k"]) == "from a\n")
        #expect(try run("plist-store-probe", ["lookup", "com.example.b", "group.example.shared", "g"]) == "global\n")
        #expect(try run("plistconv", ["defaults", "read", "group.example.shared", "k"]) == "from a\n")
        #expect(try run("plistconv", ["defaults", "read", "NSGlobalDomain", "g"]) == "global\n")
        _ = try run("plistconv", ["defaults", "write", "-g", "g", "changed"])
        #expect(try run("plist-store-probe", ["lookup", "com.example.c", "none", "g"]) == "changed\n")
        let config = root.path + "/config"
        #expect(try Plist(contentsOf: config + "/group.example.shared/group.example.shared.plist") == ["k": "from a"])
        #expect(try Plist(contentsOf: config + "/.GlobalPreferences/.GlobalPreferences.plist") == ["g": "changed"])
        #expect(!FileManager.default.fileExists(atPath: config + "/com.example.a/group.example.shared.plist"))
    }
}
