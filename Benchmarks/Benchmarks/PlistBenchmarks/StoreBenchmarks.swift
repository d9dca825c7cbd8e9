import Benchmark
import Foundation
import OrderedCollections
import PlistKit
import PlistStore
import Synchronization

/// The preferences store against Foundation's `UserDefaults` (swift-corelibs-foundation on
/// Linux), in the same run, each in a folder of its own under the temporary folder:
/// `<library>/set-synchronize/1000-keys` (one key changed and written in a domain of 1,000),
/// `<library>/object-for-key/1000-keys` (a lookup), `<library>/open/10000-keys` (a domain of
/// 10,000 keys read from its file by a new store, then one lookup), `<library>/fill/10000-keys`
/// and `20000-keys` (that many new keys set in an empty domain, then one synchronize) and
/// `<library>/lookup-during-flush/5000-keys` (one lookup while another thread changes a key of
/// a 5,000-key domain and synchronizes, over and over: its worst time is how long a lookup can
/// wait for a flush). Foundation caches each domain for the process, so its `open` uses a
/// different copy of the file at each iteration, and each `fill` a new domain.
///
/// Foundation keeps `$XDG_CONFIG_HOME/<suite>.plist` and reads the variable when the process
/// starts: `store_ratios.sh` sets it to a temporary folder. Without it, these benchmarks write
/// `bench.*.plist` into `~/.config`.
func storeBenchmarks() {
    let folder = NSTemporaryDirectory() + "plist-store-bench-\(getpid())"
    let foundationFolder = String(Preferences.foundationFile(forDomain: "x").dropLast("/x.plist".count))
    let container = AppContainer(root: folder + "/store")
    @Sendable func entries(_ count: Int) -> PlistDictionary {
        PlistDictionary(
            uniqueKeysWithValues: (0..<count).map { ("key-\($0)", Plist.string("value \($0) of the domain")) })
    }
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], warmupIterations: 5, maxDuration: .seconds(2), maxIterations: 200)
    storeCostBenchmarks(container: container, entries: entries)

    Benchmark("PlistStore/set-synchronize/1000-keys", configuration: configuration) {
        (benchmark: Benchmark, store: Preferences) in
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

    Benchmark("UserDefaults/set-synchronize/1000-keys", configuration: configuration) {
        (benchmark: Benchmark, defaults: UserDefaults) in
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

    Benchmark("PlistStore/object-for-key/1000-keys", configuration: configuration) {
        (benchmark: Benchmark, store: Preferences) in
        for iteration in benchmark.scaledIterations {
            blackHole(store.object(forKey: "key-\(iteration % 1_000)"))
        }
    } setup: {
        let store = try Preferences(domain: "lookup", container: container, arguments: [], flushDelay: nil)
        try store.setPersistentDomain(entries(1_000), forName: "lookup")
        try store.synchronize()
        return store
    }

    Benchmark("UserDefaults/object-for-key/1000-keys", configuration: configuration) {
        (benchmark: Benchmark, defaults: UserDefaults) in
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
    Benchmark("UserDefaults/open/10000-keys", configuration: configuration) {
        (benchmark: Benchmark, counter: Counter) in
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

/// Filling a domain, and lookups while another thread flushes.
func storeCostBenchmarks(
    container: AppContainer, entries: @escaping @Sendable (Int) -> PlistDictionary
) {
    let fill = Benchmark.Configuration(
        metrics: [.wallClock], warmupIterations: 0, maxDuration: .seconds(20), maxIterations: 5)
    for count in [10_000, 20_000] {
        Benchmark("PlistStore/fill/\(count)-keys", configuration: fill) { (benchmark: Benchmark, counter: Counter) in
            for _ in benchmark.scaledIterations {
                let store = try Preferences(
                    domain: "fill-\(count)-\(counter.next())", container: container, arguments: [], flushDelay: nil)
                for index in 0..<count { store.set("value \(index) of the domain", forKey: "key-\(index)") }
                try store.synchronize()
            }
        } setup: {
            Counter(limit: 100)
        }

        Benchmark("UserDefaults/fill/\(count)-keys", configuration: fill) { (benchmark: Benchmark, counter: Counter) in
            for _ in benchmark.scaledIterations {
                let defaults = UserDefaults(suiteName: "bench.fill.\(count).\(counter.next())")!
                for index in 0..<count { defaults.set("value \(index) of the domain", forKey: "key-\(index)") }
                blackHole(defaults.synchronize())
            }
        } setup: {
            Counter(limit: 100)
        }
    }

    let latency = Benchmark.Configuration(
        metrics: [.wallClock], warmupIterations: 100, maxDuration: .seconds(3), maxIterations: 1_000_000)
    let ourFlusher = BackgroundLoop(name: "PlistStore")
    Benchmark("PlistStore/lookup-during-flush/5000-keys", configuration: latency) {
        (benchmark: Benchmark, store: Preferences) in
        for _ in benchmark.scaledIterations { blackHole(store.object(forKey: "key-2500")) }
    } setup: {
        let store = try Preferences(domain: "flushing", container: container, arguments: [], flushDelay: nil)
        try store.setPersistentDomain(entries(5_000), forName: "flushing")
        ourFlusher.start { iteration in
            store.set(iteration, forKey: "changing")
            try? store.synchronize()
        }
        return store
    } teardown: {
        ourFlusher.stop()
    }

    let theirFlusher = BackgroundLoop(name: "UserDefaults")
    Benchmark("UserDefaults/lookup-during-flush/5000-keys", configuration: latency) {
        (benchmark: Benchmark, defaults: UserDefaults) in
        for _ in benchmark.scaledIterations { blackHole(defaults.object(forKey: "key-2500")) }
    } setup: {
        let defaults = UserDefaults(suiteName: "bench.flushing")!
        for (key, value) in entries(5_000) { defaults.set(value.string!, forKey: key) }
        defaults.synchronize()
        nonisolated(unsafe) let shared = defaults
        theirFlusher.start { iteration in
            shared.set(iteration, forKey: "changing")
            shared.synchronize()
        }
        return defaults
    } teardown: {
        theirFlusher.stop()
    }
}

/// A thread that runs a body over and over (a writer that keeps flushing) until stopped, and
/// says on standard error how many times it ran.
final class BackgroundLoop: Sendable {
    private let name: String
    private let stopping = Atomic<Bool>(false)
    private let runs = Atomic<Int>(0)
    private let done = DispatchSemaphore(value: 0)

    init(name: String) { self.name = name }

    func start(_ body: @escaping @Sendable (Int) -> Void) {
        Thread.detachNewThread { [self] in
            var iteration = 0
            while !stopping.load(ordering: .relaxed) {
                body(iteration)
                iteration += 1
                runs.add(1, ordering: .relaxed)
            }
            done.signal()
        }
    }

    func stop() {
        stopping.store(true, ordering: .relaxed)
        done.wait()
        FileHandle.standardError.write(
            Data("\(name): \(runs.load(ordering: .relaxed)) flushes during the lookups\n".utf8))
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
