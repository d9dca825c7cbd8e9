import Benchmark
import Foundation
import PlistKit
import PlistStore

/// The preferences store against Foundation's `UserDefaults` (swift-corelibs-foundation on
/// Linux), in the same run, each in a folder of its own under the temporary folder:
/// `<library>/set-synchronize/1000-keys` (one key changed and written in a domain of 1,000),
/// `<library>/object-for-key/1000-keys` (a lookup) and `<library>/open/10000-keys` (a domain of
/// 10,000 keys read from its file by a new store, then one lookup). Foundation caches each domain
/// for the process, so its `open` uses a different copy of the file at each iteration.
///
/// Foundation keeps `$XDG_CONFIG_HOME/<suite>.plist` and reads the variable when the process
/// starts: `store_ratios.sh` sets it to a temporary folder. Without it, these benchmarks write
/// `bench.*.plist` into `~/.config`.
func storeBenchmarks() {
    let folder = NSTemporaryDirectory() + "plist-store-bench-\(getpid())"
    let foundationFolder = String(Preferences.foundationFile(forDomain: "x").dropLast("/x.plist".count))
    let container = AppContainer(root: folder + "/store")
    func entries(_ count: Int) -> PlistDictionary {
        PlistDictionary(uniqueKeysWithValues: (0..<count).map { ("key-\($0)", Plist.string("value \($0) of the domain")) })
    }
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], warmupIterations: 5, maxDuration: .seconds(2), maxIterations: 200)

    Benchmark("PlistStore/set-synchronize/1000-keys", configuration: configuration) { (benchmark: Benchmark, store: Preferences) in
        for iteration in benchmark.scaledIterations {
            store.set(Plist(iteration), forKey: "changing")
            try store.synchronize()
        }
    } setup: {
        let store = try Preferences(domain: "set", container: container, arguments: [], flushDelay: nil)
        try store.setPersistentDomain(entries(1_000), forName: "set")
        try store.synchronize()
        return store
    }

    Benchmark("UserDefaults/set-synchronize/1000-keys", configuration: configuration) { (benchmark: Benchmark, defaults: UserDefaults) in
        for iteration in benchmark.scaledIterations {
            defaults.set(iteration, forKey: "changing")
            blackHole(defaults.synchronize())
        }
    } setup: {
        let defaults = UserDefaults(suiteName: "bench.set")!
        for (key, value) in entries(1_000) { defaults.set(value.string!, forKey: key) }
        defaults.synchronize()
        return defaults
    }

    Benchmark("PlistStore/object-for-key/1000-keys", configuration: configuration) { (benchmark: Benchmark, store: Preferences) in
        for iteration in benchmark.scaledIterations {
            blackHole(store.object(forKey: "key-\(iteration % 1_000)"))
        }
    } setup: {
        let store = try Preferences(domain: "lookup", container: container, arguments: [], flushDelay: nil)
        try store.setPersistentDomain(entries(1_000), forName: "lookup")
        try store.synchronize()
        return store
    }

    Benchmark("UserDefaults/object-for-key/1000-keys", configuration: configuration) { (benchmark: Benchmark, defaults: UserDefaults) in
        for iteration in benchmark.scaledIterations {
            blackHole(defaults.object(forKey: "key-\(iteration % 1_000)"))
        }
    } setup: {
        let defaults = UserDefaults(suiteName: "bench.lookup")!
        for (key, value) in entries(1_000) { defaults.set(value.string!, forKey: key) }
        defaults.synchronize()
        return defaults
    }

    Benchmark("PlistStore/open/10000-keys", configuration: configuration) { (benchmark: Benchmark, _: Int) in
        for _ in benchmark.scaledIterations {
            let store = try Preferences(domain: "open", container: container, arguments: [], flushDelay: nil)
            blackHole(store.object(forKey: "key-9999"))
        }
    } setup: {
        let store = try Preferences(domain: "open", container: container, arguments: [], flushDelay: nil)
        try store.setPersistentDomain(entries(10_000), forName: "open")
        try store.synchronize()
        return 0
    }

    let copies = 300
    Benchmark("UserDefaults/open/10000-keys", configuration: configuration) { (benchmark: Benchmark, counter: Counter) in
        for _ in benchmark.scaledIterations {
            let index = counter.next()
            let defaults = UserDefaults(suiteName: "bench.open.\(index)")!
            blackHole(defaults.object(forKey: "key-9999"))
        }
    } setup: {
        let defaults = UserDefaults(suiteName: "bench.open")!
        for (key, value) in entries(10_000) { defaults.set(value.string!, forKey: key) }
        defaults.synchronize()
        let source = foundationFolder + "/bench.open.plist"
        for index in 0..<copies {
            let copy = foundationFolder + "/bench.open.\(index).plist"
            try? FileManager.default.removeItem(atPath: copy)
            try FileManager.default.copyItem(atPath: source, toPath: copy)
        }
        return Counter(limit: copies)
    }
}

/// Hands out 0, 1, 2, ... up to `limit`, then stays at the last (the iterations stop before).
final class Counter: @unchecked Sendable {
    private var value = 0
    private let limit: Int
    init(limit: Int) { self.limit = limit }
    func next() -> Int {
        defer { value = min(value + 1, limit - 1) }
        return value
    }
}
