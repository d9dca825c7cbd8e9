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
//   compare-values                    sets the same values through Foundation's UserDefaults and a
//                                     Preferences, and prints for each key what object(forKey:)
//                                     gives cast to each type, one line from each
//   compare-arguments ARGUMENTS...    prints Foundation's argument domain and ours for this
//                                     command line, each as an XML property list, split by a
//                                     line "--"
//   signal on|off|ignore-hup DOMAIN KEY
//                                     (on: asks to flush on signals; ignore-hup: ignores SIGHUP
//                                     first, then asks) sets KEY to 1 without a flush delay,
//                                     prints "ready" and waits for a signal
//   suite APPID DOMAIN KEY VALUE      in AppContainer(appID:)'s container, sets KEY in DOMAIN
//   lookup APPID SUITE KEY            Preferences(appID:) searching SUITE prints string(forKey:)
//   standard KEY VALUE                sets KEY through Preferences.standard, prints what a new
//                                     Preferences(appID:) of its domain reads before any flush,
//                                     then its domain's file

signal(SIGXFSZ, SIG_IGN)
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 1 else { fatalError("usage: plist-store-probe COMMAND DOMAIN ...") }
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
if arguments[0] == "compare-values" {
    let defaults = UserDefaults(suiteName: "compare")!
    let store = try Preferences(
        domain: "compare", container: AppContainer(appID: "probe"), arguments: [], flushDelay: nil)
    let date = Date(timeIntervalSinceReferenceDate: 1_000)
    let name = "Ada"
    let count = 42
    let ratio = 2.5
    let flag = true
    let words = ["x", "y"]
    let counts = ["k": 1]
    let bytes = Data([1, 2])
    defaults.set(name, forKey: "s")
    store.set(name, forKey: "s")
    defaults.set(count, forKey: "i")
    store.set(count, forKey: "i")
    defaults.set(ratio, forKey: "d")
    store.set(ratio, forKey: "d")
    defaults.set(flag, forKey: "b")
    store.set(flag, forKey: "b")
    defaults.set(words, forKey: "a")
    store.set(words, forKey: "a")
    defaults.set(counts, forKey: "m")
    store.set(counts, forKey: "m")
    defaults.set(date, forKey: "t")
    store.set(date, forKey: "t")
    defaults.set(bytes, forKey: "data")
    store.set(bytes, forKey: "data")
    func casts(_ value: Any?) -> String {
        [
            "String=\((value as? String).map { $0 } ?? "nil")", "Int=\((value as? Int).map { "\($0)" } ?? "nil")",
            "Double=\((value as? Double).map { "\($0)" } ?? "nil")",
            "Bool=\((value as? Bool).map { "\($0)" } ?? "nil")",
            "[String]=\((value as? [String]).map { "\($0)" } ?? "nil")",
            "[String:Any]=\((value as? [String: Any]).map { "\($0.count) \($0["k"] as? Int ?? -1)" } ?? "nil")",
            "Date=\((value as? Date).map { "\($0.timeIntervalSinceReferenceDate)" } ?? "nil")",
            "Data=\((value as? Data).map { "\([UInt8]($0))" } ?? "nil")",
        ].joined(separator: " ")
    }
    for key in ["s", "i", "d", "b", "a", "m", "t", "data", "none"] {
        print("\(key) foundation \(casts(defaults.object(forKey: key)))")
        print("\(key) ours \(casts(store.object(forKey: key)))")
    }
    exit(0)
}
if arguments[0] == "compare-arguments" {
    let foundation = UserDefaults.standard.volatileDomain(forName: UserDefaults.argumentDomain)
    let xml = try PropertyListSerialization.data(fromPropertyList: foundation, format: .xml, options: 0)
    print(String(decoding: xml, as: UTF8.self))
    print("--")
    let ours = try Preferences(
        domain: "arguments", container: AppContainer(root: "/nonexistent"),
        arguments: Array(CommandLine.arguments.dropFirst()),
        flushDelay: nil)
    print(String(decoding: try Plist.dictionary(ours.argumentDomain).bytes(format: .xml), as: UTF8.self))
    exit(0)
}
if arguments[0] == "suite" {
    let store = try Preferences(
        domain: arguments[2], container: AppContainer(appID: arguments[1]), arguments: [], flushDelay: nil)
    store.set(arguments[4], forKey: arguments[3])
    try store.synchronize()
    exit(0)
}
if arguments[0] == "lookup" {
    let store = try Preferences(appID: arguments[1])
    try store.addSuite(named: arguments[2])
    print(store.string(forKey: arguments[3]) ?? "nil")
    exit(0)
}
if arguments[0] == "standard" {
    Preferences.standard.set(arguments[2], forKey: arguments[1])
    let other = try Preferences(appID: Preferences.standard.domain)
    print(other.string(forKey: arguments[1]) ?? "nil")
    try Preferences.standard.synchronize()
    print(Preferences.standard.domain)
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
case "signal":
    // As a program started from a shell: the test runner's threads block these signals, and a
    // child inherits the mask of the thread that started it.
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    sigprocmask(SIG_SETMASK, &unblocked, nil)
    if arguments[1] == "ignore-hup" { signal(SIGHUP, SIG_IGN) }
    if arguments[1] != "off" { try Preferences.flushOnTerminationSignals() }
    let signalled = try Preferences(domain: arguments[2], container: container, arguments: [], flushDelay: nil)
    signalled.set(1, forKey: arguments[3])
    line("ready")
    while true { pause() }
default:
    fatalError("unknown command \(arguments[0])")
}
