public import PlistKit
import Synchronization
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One key that changed in one persistent domain.
public struct PreferenceChange: Hashable, Sendable {
    /// The domain the key changed in.
    public var domain: String
    /// The key.
    public var key: String
    /// Its new value in that domain; nil when it was removed.
    public var value: Plist?
    /// Whether another process wrote it (it was read from the file), rather than a store of
    /// this process.
    public var isExternal: Bool
}

extension Preferences {
    /// The changes to `key` in the searched persistent domains (the store's own, the suites,
    /// the global domain), or to every key of the store's own domain when `key` is nil.
    ///
    /// The sequence registers when it is made, so a change made after this call is delivered
    /// even if the loop that iterates it starts later (`Task { for await change in
    /// defaults.changes(forKey: "theme") { ... } }` followed by `set` sees the `set`). Its
    /// first iterator takes that registration; a further iterator registers when it is made.
    ///
    /// Changes made in this process (through any store of the domain) arrive at once; other
    /// processes' writes arrive when the iterator next looks at the folders (every 20 ms while a
    /// `next()` call waits). Nothing runs between `next()` calls: on Linux an inotify descriptor
    /// on each folder (a watch on the file would go silent after the atomic rename) records what
    /// happened meanwhile; elsewhere the file's device, inode, modification time and size are
    /// compared.
    public func changes(forKey key: String? = nil) -> PreferenceChanges {
        changes(forKey: key, watchesFolder: true)
    }

    /// ``changes(forKey:)``, with `watchesFolder` false comparing file identities at every look,
    /// as on other systems (the reference the tests compare inotify with).
    package func changes(forKey key: String?, watchesFolder: Bool) -> PreferenceChanges {
        PreferenceChanges(
            key: key, stores: key == nil ? [own] : searchStores(), watchesFolder: watchesFolder, report: report)
    }

    /// The changes to every key of the persistent domain `name` (a suite, the global domain or
    /// any other), as ``changes(forKey:)`` reports them.
    /// - Throws: ``PlistStoreError/Code/invalidName`` when `name` is not one path component.
    public func changes(inDomain name: String) throws(PlistStoreError) -> PreferenceChanges {
        try changes(inDomain: name, watchesFolder: true)
    }

    /// ``changes(inDomain:)``, with `watchesFolder` as ``changes(forKey:watchesFolder:)`` has it.
    package func changes(inDomain name: String, watchesFolder: Bool) throws(PlistStoreError) -> PreferenceChanges {
        try AppContainer.validateName(name)
        return PreferenceChanges(
            key: nil, stores: [store(forDomain: name)], watchesFolder: watchesFolder, report: report)
    }

    /// Calls `handler` with each change to `key` (every key of the store's own domain when nil)
    /// from now until the returned observation is cancelled or released: registered before this
    /// call returns, as `NotificationCenter.addObserver(forName:object:queue:using:)` is.
    ///
    /// `handler` runs synchronously in the thread that made the change, after the store's locks
    /// are released. Other processes' writes reach it when this process reads them: at
    /// ``synchronize()`` and while a ``changes(forKey:)`` sequence is iterated (no thread
    /// watches the files for it).
    public func observe(
        forKey key: String? = nil, _ handler: @escaping @Sendable (PreferenceChange) -> Void
    ) -> PreferenceObservation {
        let buffer = Observation.Buffer(key: key, handler: handler)
        let stores = key == nil ? [own] : searchStores()
        var errors: [PlistStoreError] = []
        for store in stores { store.addObserver(buffer, &errors) }
        report(errors)
        return PreferenceObservation(buffer: buffer, stores: stores)
    }
}

/// A closure's registration for changes (see ``Preferences/observe(forKey:_:)``); it ends when
/// ``cancel()`` is called or the observation is released.
public final class PreferenceObservation: Sendable {
    private let buffer: Observation.Buffer
    private let stores: [DomainStore]

    init(buffer: Observation.Buffer, stores: [DomainStore]) {
        self.buffer = buffer
        self.stores = stores
    }

    /// Stops calling the handler.
    public func cancel() {
        for store in stores { store.removeObserver(buffer) }
    }

    deinit { cancel() }
}

/// The changes a store reports (see ``Preferences/changes(forKey:)``).
public struct PreferenceChanges: AsyncSequence, Sendable {
    public typealias Element = PreferenceChange
    public typealias Failure = Never

    /// The registration made with the sequence, until its first iterator takes it.
    let registration: Observation

    init(
        key: String?, stores: [DomainStore], watchesFolder: Bool,
        report: @escaping @Sendable ([PlistStoreError]) -> Void
    ) {
        registration = Observation(key: key, stores: stores, watchesFolder: watchesFolder, report: report)
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(observation: registration.take() ? registration : registration.renewed())
    }

    /// Waits for the next change; ends when the task is cancelled.
    public struct Iterator: AsyncIteratorProtocol {
        let observation: Observation

        public mutating func next() async -> PreferenceChange? {
            while !Task.isCancelled {
                if let change = observation.buffer.take() { return change }
                observation.look()
                if let change = observation.buffer.take() { return change }
                do { try await Task.sleep(for: .milliseconds(20)) } catch { return nil }
            }
            return nil
        }
    }
}

/// One iterator's registration with the domains it observes, and its watches on their
/// folders. Ends both when the iterator goes away.
final class Observation: Sendable {
    /// The changes delivered and not yet taken, or the closure that takes them at once.
    final class Buffer: Sendable {
        let key: String?
        let handler: (@Sendable (PreferenceChange) -> Void)?
        private let queue = Mutex<[PreferenceChange]>([])

        init(key: String?, handler: (@Sendable (PreferenceChange) -> Void)? = nil) {
            self.key = key
            self.handler = handler
        }

        func deliver(_ changes: [PreferenceChange]) {
            let wanted = key.map { key in changes.filter { ExactKey($0.key) == ExactKey(key) } } ?? changes
            if let handler {
                wanted.forEach(handler)
            } else if !wanted.isEmpty {
                queue.withLock { $0 += wanted }
            }
        }

        func take() -> PreferenceChange? {
            queue.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        }
    }

    let buffer: Buffer
    let stores: [DomainStore]
    let watches: [DirectoryWatch]
    let fileNames: Set<String>
    let watchesFolder: Bool
    let report: @Sendable ([PlistStoreError]) -> Void
    private let taken = Mutex(false)

    init(
        key: String?, stores: [DomainStore], watchesFolder: Bool,
        report: @escaping @Sendable ([PlistStoreError]) -> Void
    ) {
        buffer = Buffer(key: key)
        self.stores = stores
        self.watchesFolder = watchesFolder
        self.report = report
        // A folder must exist to be watched; observing is a first use of it. Without it (or
        // without inotify) every look compares the files' identities.
        var folders: [String] = []
        for store in stores where !folders.contains(store.file.folder) { folders.append(store.file.folder) }
        watches = folders.map { folder in
            let exists = watchesFolder && (try? DomainFile.createFolders(folder)) != nil
            return DirectoryWatch(folder: exists ? folder : "")
        }
        fileNames = Set(stores.map(\.file.fileName))
        var errors: [PlistStoreError] = []
        for store in stores { store.addObserver(buffer, &errors) }
        report(errors)
    }

    /// True the first time only: the first iterator takes the sequence's registration.
    func take() -> Bool {
        taken.withLock { taken in
            defer { taken = true }
            return !taken
        }
    }

    /// A new registration for the same key and domains.
    func renewed() -> Observation {
        Observation(key: buffer.key, stores: stores, watchesFolder: watchesFolder, report: report)
    }

    deinit {
        for store in stores { store.removeObserver(buffer) }
        for watch in watches { watch.close() }
    }

    /// Reads the watched files again if a folder says they changed (or cannot say).
    func look() {
        var changed = false
        for watch in watches where watch.count(named: fileNames) ?? 1 > 0 { changed = true }
        guard changed else { return }
        var errors: [PlistStoreError] = []
        for store in stores { store.refresh(&errors) }
        report(errors)
    }
}

/// Events in one folder: on Linux an inotify descriptor, read without blocking; elsewhere
/// nothing (callers compare file identities instead).
package struct DirectoryWatch: Sendable {
    private let fd: FileDescriptor?

    #if os(Linux) || os(Android)
    private static let queueOverflow = UInt32(IN_Q_OVERFLOW)
    #else
    private static let queueOverflow: UInt32 = 0
    #endif

    /// Watches the entries of `folder` from now on (nothing when it is empty).
    package init(folder: String) {
        #if os(Linux) || os(Android)
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)
        fd = folder.isEmpty ? nil : try? FileIO.watch(folder: folder, events: mask)
        #else
        fd = nil
        #endif
    }

    /// The number of events since the last call on entries named one of `names` whose kind is
    /// in `mask`; nil when the folder is not watched or the kernel's queue overflowed and events
    /// were lost (unknown: the caller looks at the files).
    package func count(named names: Set<String>, mask: UInt32 = .max) -> Int? {
        guard let fd else { return nil }
        var total = 0
        var overflowed = false
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let length = (try? FileIO.read(fd, into: &buffer)) ?? 0
            guard length > 0 else { return overflowed ? nil : total }
            var offset = 0
            // Each event: wd (4), mask (4), cookie (4), len (4), then len bytes of NUL-padded name.
            while offset + 16 <= length {
                let kind =
                    UInt32(buffer[offset + 4]) | UInt32(buffer[offset + 5]) << 8 | UInt32(buffer[offset + 6]) << 16
                    | UInt32(buffer[offset + 7]) << 24
                let nameLength = Int(
                    UInt32(buffer[offset + 12]) | UInt32(buffer[offset + 13]) << 8 | UInt32(buffer[offset + 14]) << 16
                        | UInt32(buffer[offset + 15]) << 24)
                let nameBytes = buffer[(offset + 16)..<min(length, offset + 16 + nameLength)].prefix { $0 != 0 }
                if kind & Self.queueOverflow != 0 { overflowed = true }
                if kind & mask != 0, names.contains(String(decoding: nameBytes, as: UTF8.self)) { total += 1 }
                offset += 16 + nameLength
            }
        }
    }

    /// Stops watching.
    package func close() {
        if let fd { try? FileIO.close(fd) }
    }
}
