import OrderedCollections
import PlistKit
import Synchronization

/// One persistent domain's file and what this process holds of it. Every ``Preferences`` of
/// the process that uses the same file uses the same `DomainStore` (``shared(folder:domain:)``),
/// so each sees the others' changes at once, as `UserDefaults` objects share one cache.
///
/// Two locks, always taken in this order: `disk` serialises this process's file work on the
/// domain (the first read, flushes, reading other processes' changes); `cache` guards what
/// lookups read and is held only for work in memory, never across a system call. So a lookup
/// never waits for the disk, except the very first one of a domain, which reads its file.
final class DomainStore: Sendable {
    enum Change: Hashable, Sendable {
        case set(Plist)
        case remove
    }

    struct Cache {
        /// Whether `entries` holds the file (read once, then kept up to date).
        var loaded = false
        /// What lookups see: the file as last read or written, with the pending changes on top.
        var entries: PlistDictionary = [:]
        /// The keys changed since the last flush took them, by their exact spelling (as the
        /// entries' keys).
        var pending: OrderedDictionary<ExactKey, Change> = [:]
        /// Whether the domain was replaced as a whole (`setPersistentDomain`): then the file
        /// keeps only the pending keys.
        var replaced = false
        /// The file as last read or written.
        var identity: FileIdentity?
        /// Whether a debounced flush is waiting to run.
        var flushScheduled = false
        /// The registration domain of the stores whose own domain this is (never saved).
        var registration: PlistDictionary = [:]
        /// The change buffers of the iterators observing this domain.
        var observers: [ObjectIdentifier: Observation.Buffer] = [:]
    }

    let name: String
    let file: DomainFile
    let cache = Mutex(Cache())
    private let disk = Mutex(())

    private init(name: String, file: DomainFile) {
        self.name = name
        self.file = file
    }

    deinit { Self.live.dropIfGone(ExactKey(file.path)) }

    // MARK: Sharing

    /// The live stores, by their file's path (exact: two spellings of a name are two files).
    private static let live = WeakRegistry<ExactKey, DomainStore>()

    /// The process's store of the domain `domain` whose file is in `folder`.
    static func shared(folder: String, domain: String) -> DomainStore {
        let file = DomainFile(folder: folder, domain: domain)
        return live.object(ExactKey(file.path)) { DomainStore(name: domain, file: file) }
    }

    // MARK: Lookups

    /// The value of `key` in the domain, reading the file first if this is the first use.
    func value(forKey key: String, _ errors: inout [PlistStoreError]) -> Plist? {
        if let found = cache.withLock({ $0.loaded ? Optional($0.entries[key]) : nil }) { return found }
        load(&errors)
        return cache.withLock { $0.entries[key] }
    }

    /// The domain's entries as lookups see them.
    func entries(_ errors: inout [PlistStoreError]) -> PlistDictionary {
        load(&errors)
        return cache.withLock { $0.entries }
    }

    /// Reads the file, the first time only.
    func load(_ errors: inout [PlistStoreError]) {
        guard !cache.withLock({ $0.loaded }) else { return }
        disk.withLock { _ in
            guard !cache.withLock({ $0.loaded }) else { return }
            let (entries, identity) = readDisk(&errors)
            cache.withLock { cache in
                cache.entries = entries
                for (key, change) in cache.pending { cache.entries.apply(change, forKey: key.string) }
                cache.identity = identity
                cache.loaded = true
            }
        }
    }

    /// The file's entries and identity; a damaged file is moved aside (under the lock, after
    /// reading it again there) and reported, and the domain starts empty. Called holding `disk`.
    private func readDisk(_ errors: inout [PlistStoreError]) -> (PlistDictionary, FileIdentity?) {
        do throws(PlistStoreError) {
            return try file.read()
        } catch  where error.code == .damagedFile {
            do throws(PlistStoreError) {
                return try file.withLock { () throws(PlistStoreError) in try readMovingDamageAside(&errors) }
            } catch {
                errors.append(error)
                return ([:], nil)
            }
        } catch {
            errors.append(error)
            return ([:], nil)
        }
    }

    // MARK: Changes

    /// Applies `body` to the cache (after the first read of the file), tells the observers
    /// about the keys it returns, and returns whether the caller should schedule a flush (none
    /// was waiting; `wantsFlush` says whether the caller schedules flushes at all).
    func change(wantsFlush: Bool, _ errors: inout [PlistStoreError], _ body: (inout Cache) -> [String]) -> Bool {
        load(&errors)
        let (changes, observers, schedule) = cache.withLock { cache in
            let keys = body(&cache)
            let changes =
                cache.observers.isEmpty
                ? [] : keys.map { PreferenceChange(domain: name, key: $0, value: cache.entries[$0], isExternal: false) }
            let schedule = wantsFlush && !cache.flushScheduled
            if schedule { cache.flushScheduled = true }
            return (changes, Array(cache.observers.values), schedule)
        }
        if !changes.isEmpty { for observer in observers { observer.deliver(changes) } }
        return schedule
    }

    /// Sets `key` (nil removes it) in memory; the flush writes it.
    func set(_ value: Plist?, forKey key: String, wantsFlush: Bool, _ errors: inout [PlistStoreError]) -> Bool {
        change(wantsFlush: wantsFlush, &errors) { cache in
            let change = value.map(Change.set) ?? .remove
            cache.entries.apply(change, forKey: key)
            cache.pending[ExactKey(key)] = change
            return [key]
        }
    }

    // MARK: Flushing

    /// Writes the pending changes under the domain's lock, merged key by key into the file as
    /// it is now, or, without changes, reads other processes' changes. `transform`, when given,
    /// edits the merged entries before they are written (`defaults write -array-add`), so that
    /// it reads and writes under the lock. The cache's lock is not held meanwhile: lookups and
    /// changes go on, and changes made during the flush stay pending for the next one.
    /// - Throws: the flush's error; its changes are pending again.
    func flush(
        _ errors: inout [PlistStoreError],
        transform: ((inout PlistDictionary) throws(PlistStoreError) -> Void)? = nil
    ) throws(PlistStoreError) {
        if transform != nil { load(&errors) }
        try disk.withLock { _ throws(PlistStoreError) in
            let taken = cache.withLock { cache -> (OrderedDictionary<ExactKey, Change>, Bool)? in
                cache.flushScheduled = false
                guard cache.loaded, cache.replaced || !cache.pending.isEmpty || transform != nil else { return nil }
                defer {
                    cache.pending = [:]
                    cache.replaced = false
                }
                return (cache.pending, cache.replaced)
            }
            guard let (pending, replaced) = taken else {
                refreshHoldingDisk(&errors)
                return
            }
            let merged: PlistDictionary
            let written: OrderedDictionary<ExactKey, Change>
            do throws(PlistStoreError) {
                (merged, written) = try writeMerged(pending, replaced: replaced, transform: transform, &errors)
            } catch {
                cache.withLock { cache in
                    // Put the changes back under the ones made since (which win), unless the
                    // domain was replaced since.
                    guard !cache.replaced else { return }
                    var restored = pending
                    for (key, change) in cache.pending { restored[key] = change }
                    cache.pending = restored
                    cache.replaced = replaced
                }
                throw error
            }
            install(merged, identity: FileIdentity(path: file.path), except: written)
        }
    }

    /// The file's entries and identity, read under the domain's lock. A damaged file is moved
    /// aside and reported, and the domain is empty (no file).
    /// - Throws: the damaged file's error when it cannot be moved aside (it is then never
    ///   replaced), and the file's other errors.
    private func readMovingDamageAside(_ errors: inout [PlistStoreError]) throws(PlistStoreError) -> (
        PlistDictionary, FileIdentity?
    ) {
        do throws(PlistStoreError) {
            return try file.read()
        } catch  where error.code == .damagedFile {
            var kept = error
            guard let movedTo = file.moveAside() else {
                kept.message += "; it could not be moved aside, so it was not replaced"
                throw kept
            }
            kept.movedTo = movedTo
            errors.append(kept)
            return ([:], nil)
        }
    }

    /// Under the domain's lock: reads the file, applies `pending` (and `transform`), and writes
    /// the result when it differs from the file. Returns the result and the changes it made.
    private func writeMerged(
        _ pending: OrderedDictionary<ExactKey, Change>, replaced: Bool,
        transform: ((inout PlistDictionary) throws(PlistStoreError) -> Void)?,
        _ errors: inout [PlistStoreError]
    ) throws(PlistStoreError) -> (PlistDictionary, OrderedDictionary<ExactKey, Change>) {
        try DomainFile.createFolders(file.folder)
        return try file.withLock { () throws(PlistStoreError) in
            let read = try readMovingDamageAside(&errors)
            let (disk, exists) = (read.0, read.1 != nil)
            var merged = replaced ? [:] : disk
            for (key, change) in pending { merged.apply(change, forKey: key.string) }
            var written = pending
            if let transform {
                let before = merged
                try transform(&merged)
                for (key, value) in merged where before[key] != value { written[ExactKey(key)] = .set(value) }
            }
            if merged.isEmpty, replaced {
                if exists { try file.remove() }
            } else if !exists || Plist.dictionary(merged) != Plist.dictionary(disk) {
                try file.write(merged)
            }
            return (merged, written)
        }
    }

    /// Reads the file again if it changed since it was last read, and tells observers which
    /// keys other processes changed.
    func refresh(_ errors: inout [PlistStoreError]) {
        disk.withLock { _ in refreshHoldingDisk(&errors) }
    }

    private func refreshHoldingDisk(_ errors: inout [PlistStoreError]) {
        let (loaded, identity) = cache.withLock { ($0.loaded, $0.identity) }
        guard loaded, FileIdentity(path: file.path) != identity else { return }
        let (entries, newIdentity) = readDisk(&errors)
        install(entries, identity: newIdentity, except: [:])
    }

    /// Makes `base` (the file's entries) what lookups see, with the changes still pending on
    /// top, and reports to the observers the keys whose value changed other than by `except`
    /// or the pending changes.
    private func install(
        _ base: consuming PlistDictionary, identity: FileIdentity?,
        except: OrderedDictionary<ExactKey, Change>
    ) {
        // Taken whole (the caller's last use), so that applying the changes made meanwhile
        // edits it in place instead of copying the domain under the lock.
        let (changes, observers, _) = cache.withLock { cache in
            var next: PlistDictionary = [:]
            if !cache.replaced { swap(&next, &base) }
            for (key, change) in cache.pending { next.apply(change, forKey: key.string) }
            var changes: [PreferenceChange] = []
            if !cache.observers.isEmpty {
                func external(_ key: String) -> Bool {
                    except[ExactKey(key)] == nil && cache.pending[ExactKey(key)] == nil
                }
                for (key, value) in cache.entries where next[key] != value && external(key) {
                    changes.append(PreferenceChange(domain: name, key: key, value: next[key], isExternal: true))
                }
                for (key, value) in next where cache.entries[key] == nil && external(key) {
                    changes.append(PreferenceChange(domain: name, key: key, value: value, isExternal: true))
                }
            }
            // The entries replaced are freed after the lock is released: freeing a large domain
            // is not work a lookup should wait for.
            let replaced = cache.entries
            cache.entries = next
            cache.identity = identity
            return (changes, Array(cache.observers.values), replaced)
        }
        if !changes.isEmpty { for observer in observers { observer.deliver(changes) } }
    }

    /// Whether changes wait for a flush.
    var hasPendingChanges: Bool { cache.withLock { $0.replaced || !$0.pending.isEmpty } }

    // MARK: Observers

    func addObserver(_ buffer: Observation.Buffer, _ errors: inout [PlistStoreError]) {
        load(&errors)
        cache.withLock { $0.observers[ObjectIdentifier(buffer)] = buffer }
    }

    func removeObserver(_ buffer: Observation.Buffer) {
        _ = cache.withLock { $0.observers.removeValue(forKey: ObjectIdentifier(buffer)) }
    }
}

extension PlistDictionary {
    /// Sets or removes `key`.
    mutating func apply(_ change: DomainStore.Change, forKey key: String) {
        switch change {
        case .set(let value): self[key] = value
        case .remove: self[key] = nil
        }
    }
}
