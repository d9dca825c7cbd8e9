import Foundation
import PlistKit
import PlistStore

#if canImport(Glibc)
import Glibc
#endif

// Uses the preferences store in a process of its own, for `PlistStoreProcessTests`. The
// container is the one PLIST_CONTAINER_ROOT names. Commands:
//   write DOMAIN PREFIX COUNT EVERY   sets PREFIX-0 ... PREFIX-(COUNT-1) to 0 ... COUNT-1,
//                                     synchronizing after every EVERY sets (0: only at exit)
//   churn DOMAIN KEYS                 forever: sets KEYS keys all to generation n, synchronizes,
//                                     prints n once written
//   observe DOMAIN COUNT              prints "ready", then each distinct key that other
//                                     processes change, until COUNT were seen
//   big DOMAIN BYTES                  sets "big" to BYTES bytes and synchronizes; the error on
//                                     standard error and exit 1 when that fails
//   exit DOMAIN KEY VALUE             sets KEY and returns from main without synchronizing
//   foundation DOMAIN                 writes keys through Foundation's UserDefaults(suiteName:), as
//                                     an app before migration did: s, i, d, b, a, m
//   foundation-write DOMAIN PREFIX COUNT
//                                     sets PREFIX-0 ... through Foundation's UserDefaults,
//                                     synchronizing after each (Benchmarks/lost_updates.sh)
//   paths APPID                       prints AppContainer(appID:)'s five directories, one a line

signal(SIGXFSZ, SIG_IGN)
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else { fatalError("usage: plist-store-probe COMMAND DOMAIN ...") }
if arguments[0] == "foundation" {
    let defaults = UserDefaults(suiteName: arguments[1])!
    defaults.set("text", forKey: "s")
    defaults.set(42, forKey: "i")
    defaults.set(2.5, forKey: "d")
    defaults.set(true, forKey: "b")
    defaults.set(["x", "y"], forKey: "a")
    defaults.set(["k": 1], forKey: "m")
    exit(defaults.synchronize() ? 0 : 1)
}
if arguments[0] == "foundation-write" {
    let defaults = UserDefaults(suiteName: arguments[1])!
    for index in 0..<Int(arguments[3])! {
        defaults.set(index, forKey: "\(arguments[2])-\(index)")
        defaults.synchronize()
    }
    exit(0)
}
if arguments[0] == "paths" {
    let container = try AppContainer(appID: arguments[1])
    for directory in AppContainer.Directory.allCases { print(container.location(of: directory)) }
    exit(0)
}
let container = try AppContainer(appID: "probe")
let store = try Preferences(domain: arguments[1], container: container, arguments: [], flushDelay: nil)

func line(_ text: String) {
    print(text)
    fflush(nil)
}

switch arguments[0] {
case "write":
    let prefix = arguments[2]
    let count = Int(arguments[3])!
    let every = Int(arguments[4])!
    for index in 0..<count {
        store.set(Plist(index), forKey: "\(prefix)-\(index)")
        if every > 0, (index + 1) % every == 0 { try store.synchronize() }
    }
    try store.synchronize()
case "churn":
    let keys = Int(arguments[2])!
    var generation = 1
    while true {
        for key in 0..<keys { store.set(Plist(generation), forKey: "k\(key)") }
        try store.synchronize()
        line("\(generation)")
        generation += 1
    }
case "observe":
    let wanted = Int(arguments[2])!
    var seen = Set<String>()
    let changes = store.changes()
    var iterator = changes.makeAsyncIterator()
    line("ready")
    while seen.count < wanted, let change = await iterator.next() {
        if change.isExternal, change.value != nil { seen.insert(change.key) }
    }
    line("seen \(seen.count)")
case "big":
    store.set(.data(Data(count: Int(arguments[2])!)), forKey: "big")
    do {
        try store.synchronize()
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(1)
    }
case "exit":
    store.set(Preferences.parseValue(arguments[3]), forKey: arguments[2])
default:
    fatalError("unknown command \(arguments[0])")
}
