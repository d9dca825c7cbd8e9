import OrderedCollections
public import PlistKit
import Synchronization

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A preferences store with UserDefaults' semantics, kept as one binary property list per
/// domain in the container's `Library/Preferences`, safe against crashes and against other
/// processes writing the same domain.
///
/// Lookups search, in order: the argument domain (`-key value` launch arguments), the store's
/// own persistent domain, the suites added with ``addSuite(named:)``, the global domain and the
/// registration domain (``register(defaults:)``, never saved). `set(_:forKey:)` changes the
/// store's own domain.
///
/// Changes are kept in memory and written by a flush: ``synchronize()``, the debounced flush
/// that a change schedules (``init(domain:container:arguments:flushDelay:errorHandler:)``'s
/// `flushDelay`), the end of the process (`exit` or a return from `main`) and the store's
/// deinitialisation. A flush takes the domain's lock, reads the file again and applies only the
/// keys this store changed, so processes that write different keys lose none of them.
public final class Preferences: Sendable {
    /// The name of the global domain (its file is `.GlobalPreferences.plist`, as on Apple
    /// platforms). `NSGlobalDomain` on the command line.
    public static let globalDomain = ".GlobalPreferences"

    /// The persistent domain this store writes.
    public let domain: String
    /// The container whose `Library/Preferences` holds the domain files.
    public let container: AppContainer
    /// The argument domain, from the launch arguments.
    public let argumentDomain: PlistDictionary

    let flushDelay: Duration?
    let errorHandler: @Sendable (PlistStoreError) -> Void
    let state = Mutex(State())

    /// A store for the persistent domain `domain` in `container`.
    /// - Parameters:
    ///   - domain: the persistent domain the store writes (its file is `<domain>.plist`).
    ///   - container: the container whose `Library/Preferences` holds the domain files.
    ///   - arguments: the launch arguments without the program name; each `-key value` pair
    ///     becomes an entry of the argument domain, its value read as a property list (XML,
    ///     OpenStep or JSON text) or else taken as a string.
    ///   - flushDelay: how long after a change the automatic flush runs (in a task that the
    ///     change schedules); nil for none: then only ``synchronize()``, the end of the process
    ///     and deinitialisation flush.
    ///   - errorHandler: receives the errors of the flushes nobody awaits (automatic and at
    ///     exit) and of damaged files found while reading; by default they are written to
    ///     standard error.
    /// - Throws: ``PlistStoreError/Code/invalidName`` when `domain` is not one path component.
    public init(
        domain: String, container: AppContainer,
        arguments: [String] = Array(ProcessInfo.processInfo.arguments.dropFirst()),
        flushDelay: Duration? = .milliseconds(250),
        errorHandler: @escaping @Sendable (PlistStoreError) -> Void = Preferences.printError
    ) throws(PlistStoreError) {
        try AppContainer.validateName(domain)
        self.domain = domain
        self.container = container
        self.flushDelay = flushDelay
        self.errorHandler = errorHandler
        argumentDomain = Self.argumentDomain(arguments)
        ExitFlush.register(self)
    }

    /// The store of the app `appID` in ``AppContainer/init(appID:)``'s container, writing the
    /// domain `appID`.
    public convenience init(appID: String) throws(PlistStoreError) {
        try self.init(domain: appID, container: AppContainer(appID: appID))
    }

    deinit {
        ExitFlush.unregister(self)
        flushAll(reporting: true)
    }

    /// Writes `error` to standard error, one line.
    public static let printError: @Sendable (PlistStoreError) -> Void = { error in
        var line = Array("PlistStore: \(error)\n".utf8)
        _ = unsafe line.withUnsafeMutableBytes { unsafe write(2, $0.baseAddress, $0.count) }
    }

    // MARK: Reading

    /// The value for `key` in the first domain of the search list that has it.
    public func object(forKey key: String) -> Plist? {
        if let value = argumentDomain[key] { return value }
        return withState { state, report in
            for name in searchDomains(state) {
                if let value = loaded(name, &state, &report).entries[key] { return value }
            }
            return state.registration[key]
        }
    }

    /// The string, or the text of a number (`string(forKey:)`'s coercion).
    public func string(forKey key: String) -> String? { object(forKey: key)?.coercedString }

    /// The integer, or 0: reals are truncated, Booleans are 1 or 0, strings give their leading
    /// integer ("42" is 42, "7 apples" is 7, "YES" is 0).
    public func integer(forKey key: String) -> Int { object(forKey: key)?.coercedInteger ?? 0 }

    /// The number, or 0: integers and Booleans convert, strings give their leading number.
    public func double(forKey key: String) -> Double { object(forKey: key)?.coercedDouble ?? 0 }

    /// ``double(forKey:)`` as a `Float`.
    public func float(forKey key: String) -> Float { Float(double(forKey: key)) }

    /// The Boolean, or false: numbers are true when non-zero; strings are true when they start
    /// (after spaces, a sign and zeros) with Y, y, T, t or a digit 1–9 ("YES", "true", "1").
    public func bool(forKey key: String) -> Bool { object(forKey: key)?.coercedBool ?? false }

    /// The URL: a string with a scheme as it is, any other string as a file path (`~` expanded).
    public func url(forKey key: String) -> URL? { object(forKey: key)?.coercedURL }

    /// The array, if the value is one.
    public func array(forKey key: String) -> [Plist]? { object(forKey: key)?.array }

    /// The array, if the value is an array of strings only.
    public func stringArray(forKey key: String) -> [String]? {
        guard let array = array(forKey: key) else { return nil }
        let strings = array.compactMap(\.string)
        return strings.count == array.count ? strings : nil
    }

    /// The dictionary, if the value is one.
    public func dictionary(forKey key: String) -> PlistDictionary? {
        object(forKey: key)?.dictionary
    }

    /// The bytes, if the value is data.
    public func data(forKey key: String) -> Data? { object(forKey: key)?.data }

    /// The value decoded with `PlistDecoder` from its property-list tree, or nil when there is
    /// no value.
    /// - Throws: ``PlistStoreError/Code/invalidValue`` when the value is not a `T`.
    public func decode<T: Decodable>(_ type: T.Type, forKey key: String) throws(PlistStoreError) -> T? {
        guard let value = object(forKey: key) else { return nil }
        do {
            return try PlistDecoder().decode(type, from: value)
        } catch {
            throw PlistStoreError(.invalidValue, "cannot decode \(T.self): \(error)", path: key)
        }
    }

    /// Every key of the search list with the value a lookup gives.
    public func dictionaryRepresentation() -> PlistDictionary {
        var result = withState { state, report in
            var result = state.registration
            for name in searchDomains(state).reversed() {
                result.merge(loaded(name, &state, &report).entries) { _, new in new }
            }
            return result
        }
        result.merge(argumentDomain) { _, new in new }
        return result
    }

    // MARK: Writing

    /// Sets `key` in the store's domain; nil removes it.
    public func set(_ value: Plist?, forKey key: String) {
        change(domain) { domain in
            domain.entries[key] = value
            domain.pending[ExactKey(key)] = value.map(Change.set) ?? .remove
            return [key]
        }
    }

    /// Sets `key` to the URL's absolute string (a file URL as `file:///...`).
    public func set(_ url: URL?, forKey key: String) {
        set(url.map { .string($0.absoluteString) }, forKey: key)
    }

    /// Removes `key` from the store's domain.
    public func removeObject(forKey key: String) { set(nil as Plist?, forKey: key) }

    /// Sets `key` to the property-list tree `PlistEncoder` makes of `value` (a native tree that
    /// `plutil` and `defaults` read, not an archive or a JSON string).
    /// - Throws: ``PlistStoreError/Code/invalidValue`` when `value` cannot be encoded; nothing
    ///   changes then.
    public func encode<T: Encodable>(_ value: T, forKey key: String) throws(PlistStoreError) {
        let tree: Plist
        do {
            tree = try PlistEncoder().encodeToPlist(value)
        } catch {
            throw PlistStoreError(.invalidValue, "cannot encode \(T.self): \(error)", path: key)
        }
        set(tree, forKey: key)
    }

    /// Adds `defaults` to the registration domain, the last one searched. It is never saved.
    public func register(defaults: PlistDictionary) {
        state.withLock { $0.registration.merge(defaults) { _, new in new } }
    }

    // MARK: Domains

    /// Searches the persistent domain `name` after the store's own (and before the global
    /// domain), as `UserDefaults.addSuite(named:)` does.
    public func addSuite(named name: String) throws(PlistStoreError) {
        try AppContainer.validateName(name)
        state.withLock { if !$0.suites.contains(name) { $0.suites.append(name) } }
    }

    /// Stops searching the suite `name`.
    public func removeSuite(named name: String) {
        state.withLock { $0.suites.removeAll { $0 == name } }
    }

    /// The entries of the persistent domain `name`, nil when it has none.
    public func persistentDomain(forName name: String) throws(PlistStoreError) -> PlistDictionary? {
        try AppContainer.validateName(name)
        let entries = withState { state, report in loaded(name, &state, &report).entries }
        return entries.isEmpty ? nil : entries
    }

    /// Replaces the persistent domain `name` as a whole at the next flush.
    public func setPersistentDomain(_ entries: PlistDictionary, forName name: String) throws(PlistStoreError) {
        try AppContainer.validateName(name)
        change(name) { domain in
            let keys = Set(domain.entries.keys).union(entries.keys)
            domain.entries = entries
            domain.pending = OrderedDictionary(uniqueKeysWithValues: entries.map { (ExactKey($0.key), Change.set($0.value)) })
            domain.replaced = true
            return Array(keys)
        }
    }

    /// Removes the persistent domain `name` (its file) at the next flush.
    public func removePersistentDomain(forName name: String) throws(PlistStoreError) {
        try setPersistentDomain([:], forName: name)
    }

    /// The names of the persistent domains that have a file.
    public func persistentDomainNames() -> [String] {
        let folder = container.location(of: .preferences)
        guard let dir = unsafe opendir(folder) else { return [] }
        defer { unsafe closedir(dir) }
        var names: [String] = []
        while let entry = unsafe readdir(dir) {
            let name = unsafe withUnsafeBytes(of: entry.pointee.d_name) { raw in
                unsafe String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(".plist"), name != ".plist" { names.append(String(name.dropLast(6))) }
        }
        return names.sorted()
    }

    /// The volatile domain `name`: kept in memory only and, as in Foundation, not searched.
    public func volatileDomain(forName name: String) -> PlistDictionary {
        state.withLock { $0.volatile[name] ?? [:] }
    }

    /// Sets the volatile domain `name`.
    public func setVolatileDomain(_ entries: PlistDictionary, forName name: String) {
        state.withLock { $0.volatile[name] = entries }
    }

    /// Removes the volatile domain `name`.
    public func removeVolatileDomain(forName name: String) {
        _ = state.withLock { $0.volatile.removeValue(forKey: name) }
    }

    /// The names of the volatile domains.
    public var volatileDomainNames: [String] { state.withLock { $0.volatile.keys.sorted() } }

    // MARK: Flushing

    /// Writes this store's changes now (each changed domain under its lock, merged key by key
    /// with what other processes wrote) and reads the other processes' changes to the domains
    /// already read. A domain without changes is not written.
    /// - Throws: the first error; the changes that could not be written stay pending.
    public func synchronize() throws(PlistStoreError) {
        let errors = flushAll(reporting: false)
        if let first = errors.first { throw first }
    }

    /// Flushes every loaded domain; reports the errors to the handler or returns them.
    @discardableResult
    func flushAll(reporting: Bool) -> [PlistStoreError] {
        let failures = withState { state, report in
            state.flushScheduled = false
            var failures: [PlistStoreError] = []
            for name in state.domains.keys.sorted() {
                do throws(PlistStoreError) { try flush(name, &state, &report) } catch { failures.append(error) }
            }
            return failures
        }
        if reporting { failures.forEach(errorHandler) }
        return failures
    }

    // MARK: State

    enum Change: Hashable, Sendable {
        case set(Plist)
        case remove
    }

    struct DomainState {
        /// What lookups see: the file as last read, with this store's pending changes on top.
        var entries: PlistDictionary = [:]
        /// The keys this store changed since the last flush.
        var pending: OrderedDictionary<ExactKey, Change> = [:]
        /// Whether the domain was replaced as a whole (`setPersistentDomain`): then the file
        /// keeps only the pending keys.
        var replaced = false
        /// The file as last read or written.
        var identity: FileIdentity?
    }

    struct State {
        var domains: [String: DomainState] = [:]
        var registration: PlistDictionary = [:]
        var volatile: [String: PlistDictionary] = [:]
        var suites: [String] = []
        var flushScheduled = false
        var observers: [Int: Observation.Buffer] = [:]
        var nextObserver = 0
    }

    /// What a locked section found to report once the lock is released.
    struct Report {
        var errors: [PlistStoreError] = []
        var changes: [PreferenceChange] = []
    }

    /// Runs `body` under the lock, then reports damaged files to the handler and hands the
    /// changes to the observers (outside the lock, so a handler may use the store).
    func withState<R: Sendable>(_ body: (inout State, inout Report) -> R) -> R {
        var report = Report()
        let (result, observers) = state.withLock { state in
            let result = body(&state, &report)
            return (result, report.changes.isEmpty ? [] : Array(state.observers.values))
        }
        report.errors.forEach(errorHandler)
        for observer in observers { observer.deliver(report.changes) }
        return result
    }

    /// The persistent domains searched, in order.
    func searchDomains(_ state: State) -> [String] {
        var names = [domain]
        for suite in state.suites where !names.contains(suite) { names.append(suite) }
        if !names.contains(Self.globalDomain) { names.append(Self.globalDomain) }
        return names
    }

    /// The domain `name`, read from its file the first time.
    func loaded(_ name: String, _ state: inout State, _ report: inout Report) -> DomainState {
        if let domain = state.domains[name] { return domain }
        var domain = DomainState()
        (domain.entries, domain.identity) = readDisk(file(name), &report)
        state.domains[name] = domain
        return domain
    }

    func file(_ name: String) -> DomainFile {
        DomainFile(folder: container.location(of: .preferences), domain: name)
    }

    /// The file's entries; a damaged file is moved aside (under the lock, after reading it
    /// again there) and reported, and the domain starts empty.
    func readDisk(_ file: DomainFile, _ report: inout Report) -> (PlistDictionary, FileIdentity?) {
        do throws(PlistStoreError) {
            return try file.read()
        } catch where error.code == .damagedFile {
            do throws(PlistStoreError) {
                return try file.withLock { () throws(PlistStoreError) in
                    do throws(PlistStoreError) {
                        return try file.read()
                    } catch where error.code == .damagedFile {
                        var kept = error
                        kept.movedTo = file.moveAside()
                        report.errors.append(kept)
                        return ([:], nil)
                    }
                }
            } catch {
                report.errors.append(error)
                return ([:], nil)
            }
        } catch {
            report.errors.append(error)
            return ([:], nil)
        }
    }

    /// Applies `body` to the domain `name`, notifies observers of the keys it returns, and
    /// schedules the automatic flush.
    private func change(_ name: String, _ body: (inout DomainState) -> [String]) {
        let schedule = withState { state, report in
            var domain = loaded(name, &state, &report)
            let keys = body(&domain)
            state.domains[name] = domain
            if !state.observers.isEmpty {
                for key in keys {
                    report.changes.append(PreferenceChange(domain: name, key: key, value: domain.entries[key], isExternal: false))
                }
            }
            guard flushDelay != nil, !state.flushScheduled else { return false }
            state.flushScheduled = true
            return true
        }
        if schedule, let flushDelay {
            Task { [weak self] in
                try? await Task.sleep(for: flushDelay)
                self?.flushAll(reporting: true)
            }
        }
    }

    /// Writes the domain's pending changes under its lock (merged key by key into the file as
    /// it is now), or, without changes, reads other processes' changes.
    func flush(_ name: String, _ state: inout State, _ report: inout Report) throws(PlistStoreError) {
        guard var domain = state.domains[name] else { return }
        guard domain.replaced || !domain.pending.isEmpty else {
            refresh(name, &state, &report)
            return
        }
        let file = file(name)
        _ = try container.directory(.preferences)
        let merged = try file.withLock { () throws(PlistStoreError) in
            file.removeStaleTemporaries()
            var disk: PlistDictionary
            var exists: Bool
            do throws(PlistStoreError) {
                let read = try file.read()
                (disk, exists) = (read.0, read.1 != nil)
            } catch where error.code == .damagedFile {
                var kept = error
                guard let movedTo = file.moveAside() else {
                    kept.message += "; it could not be moved aside, so it was not replaced"
                    throw kept
                }
                kept.movedTo = movedTo
                report.errors.append(kept)
                (disk, exists) = ([:], false)
            }
            var merged = domain.replaced ? [:] : disk
            for (key, change) in domain.pending {
                switch change {
                case .set(let value): merged[key.string] = value
                case .remove: merged[key.string] = nil
                }
            }
            if merged.isEmpty, domain.replaced {
                if exists { try file.remove() }
            } else if !exists || Plist.dictionary(merged) != Plist.dictionary(disk) {
                try file.write(merged)
            }
            return merged
        }
        noteExternalChanges(name, old: domain.entries, new: merged, except: domain.pending, &report)
        domain.entries = merged
        domain.pending = [:]
        domain.replaced = false
        domain.identity = FileIdentity(path: file.path)
        state.domains[name] = domain
    }

    /// Reads the domain's file again if it changed since it was last read, and tells observers
    /// which keys other processes changed.
    func refresh(_ name: String, _ state: inout State, _ report: inout Report) {
        guard var domain = state.domains[name] else { return }
        let file = file(name)
        guard FileIdentity(path: file.path) != domain.identity else { return }
        var (entries, identity) = readDisk(file, &report)
        if domain.replaced { entries = [:] }
        for (key, change) in domain.pending {
            switch change {
            case .set(let value): entries[key.string] = value
            case .remove: entries[key.string] = nil
            }
        }
        noteExternalChanges(name, old: domain.entries, new: entries, except: domain.pending, &report)
        domain.entries = entries
        domain.identity = identity
        state.domains[name] = domain
    }

    /// Reads the files of `names` again where they changed (observers call this).
    func refresh(_ names: [String]) {
        withState { state, report in
            for name in names {
                _ = loaded(name, &state, &report)
                refresh(name, &state, &report)
            }
        }
    }

    private func noteExternalChanges(
        _ name: String, old: PlistDictionary, new: PlistDictionary,
        except pending: OrderedDictionary<ExactKey, Change>, _ report: inout Report
    ) {
        let keys = old.keys.elements + new.keys.filter { old.index(forKey: $0) == nil }
        for key in keys where pending[ExactKey(key)] == nil && old[key] != new[key] {
            report.changes.append(PreferenceChange(domain: name, key: key, value: new[key], isExternal: true))
        }
    }

    // MARK: Launch arguments

    /// The argument domain of `arguments`: each `-key value` pair.
    static func argumentDomain(_ arguments: [String]) -> PlistDictionary {
        var result: PlistDictionary = [:]
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument.count > 1, argument.hasPrefix("-"), argument != "--", index + 1 < arguments.count {
                result[String(argument.dropFirst())] = parseValue(arguments[index + 1])
                index += 2
            } else {
                index += 1
            }
        }
        return result
    }

    /// `text` read as a property list in XML, OpenStep or JSON text, else the string itself
    /// (so `-name Anna` is the string "Anna", `-count 5` the string "5", `-list (a,b)` an
    /// array), as Foundation reads launch arguments and `defaults write` its values.
    package static func parseValue(_ text: String) -> Plist {
        let bytes = Array(text.utf8)
        let trimmed = text.drop { $0 == " " || $0 == "\n" || $0 == "\t" }
        if trimmed.hasPrefix("<?xml") || trimmed.hasPrefix("<plist") || trimmed.hasPrefix("<!DOCTYPE") {
            if let value = try? Plist(xml: bytes) { return value }
        }
        if let value = try? Plist(openStep: bytes) { return value }
        if trimmed.hasPrefix("[") || trimmed.hasPrefix("{"), let value = try? Plist(json: bytes) { return value }
        return .string(text)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
