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
    /// Changes made in this process (through any store of the domain) arrive at once; other
    /// processes' writes arrive when the iterator next looks at the folders (every 20 ms while a
    /// `next()` call waits). Nothing runs between `next()` calls: on Linux an inotify descriptor
    /// on each folder (a watch on the file would go silent after the atomic rename) records what
    /// happened meanwhile; elsewhere the file's device, inode, modification time and size are
    /// compared.
    public func changes(forKey key: String? = nil) -> PreferenceChanges {
        PreferenceChanges(key: key, stores: key == nil ? [own] : searchStores(), report: report)
    }

    /// The changes to every key of the persistent domain `name` (a suite, the global domain or
    /// any other), as ``changes(forKey:)`` reports them.
    /// - Throws: ``PlistStoreError/Code/invalidName`` when `name` is not one path component.
    public func changes(inDomain name: String) throws(PlistStoreError) -> PreferenceChanges {
        try AppContainer.validateName(name)
        return PreferenceChanges(key: nil, stores: [store(forDomain: name)], report: report)
    }
}

/// The changes a store reports (see ``Preferences/changes(forKey:)``).
public struct PreferenceChanges: AsyncSequence, Sendable {
    public typealias Element = PreferenceChange
    public typealias Failure = Never

    let key: String?
    let stores: [DomainStore]
    let report: @Sendable ([PlistStoreError]) -> Void
    /// Whether to use the folder's events where the system has them (inotify); false compares
    /// file identities at every look, as on other systems (the reference the tests compare with).
    package var watchesFolder = true

    public func makeAsyncIterator() -> Iterator {
        Iterator(observation: Observation(key: key, stores: stores, watchesFolder: watchesFolder, report: report))
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
    /// The changes delivered and not yet taken.
    final class Buffer: Sendable {
        let key: String?
        private let queue = Mutex<[PreferenceChange]>([])

        init(key: String?) { self.key = key }

        func deliver(_ changes: [PreferenceChange]) {
            let wanted = changes.filter { key == nil || $0.key.utf8.elementsEqual(key!.utf8) }
            if !wanted.isEmpty { queue.withLock { $0 += wanted } }
        }

        func take() -> PreferenceChange? {
            queue.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        }
    }

    let buffer: Buffer
    let stores: [DomainStore]
    let watches: [DirectoryWatch]
    let fileNames: Set<String>
    let report: @Sendable ([PlistStoreError]) -> Void

    init(
        key: String?, stores: [DomainStore], watchesFolder: Bool,
        report: @escaping @Sendable ([PlistStoreError]) -> Void
    ) {
        buffer = Buffer(key: key)
        self.stores = stores
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
