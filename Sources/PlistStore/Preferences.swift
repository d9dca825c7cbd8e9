import OrderedCollections
public import PlistKit
import Synchronization
import SystemPackage

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A preferences store with UserDefaults' semantics, kept as one binary property list per
/// domain, safe against crashes and against other processes writing the same domain.
///
/// Lookups search, in order: the argument domain (`-key value` launch arguments), the store's
/// own persistent domain, the suites added with ``addSuite(named:)``, the global domain and the
/// registration domain (``register(defaults:)``, never saved). `set(_:forKey:)` changes the
/// store's own domain.
///
/// Every `Preferences` of the process that uses one domain file shares what it holds of it:
/// a change through one is seen through the others at once, as all `UserDefaults` objects
/// share one cache.
///
/// Changes are kept in memory and written by a flush: ``synchronize()``, the debounced flush
/// that a change schedules (``init(domain:container:arguments:flushDelay:errorHandler:)``'s
/// `flushDelay`), the end of the process (`exit` or a return from `main`, and the signals of
/// ``flushOnTerminationSignals()`` once asked for) and the store's deinitialisation. A flush
/// takes the domain's lock, reads the file again and applies only the keys changed in this
/// process, so processes that write different keys lose none of them.
public final class Preferences: Sendable {
    /// The name of the global domain (its file is `.GlobalPreferences.plist`, as on Apple
    /// platforms). `NSGlobalDomain` on the command line.
    public static let globalDomain = ".GlobalPreferences"

    /// The store of the running program's own domain, named after the process
    /// (`ProcessInfo.processName`, as Foundation names it on Linux), in
    /// ``AppContainer/init(appID:)``'s container for that name. Like `UserDefaults.standard`,
    /// one object for the whole process.
    public static let standard: Preferences = {
        let name = ProcessInfo.processInfo.processName
        let domain = (try? AppContainer.validateName(name)) == nil ? "process" : name
        return Preferences(validDomain: domain, container: AppContainer(validAppID: domain))
    }()

    /// The persistent domain this store writes.
    public let domain: String
    /// The container that holds the domain files.
    public let container: AppContainer
    /// The argument domain, from the launch arguments.
    public let argumentDomain: PlistDictionary

    let flushDelay: Duration?
    let errorHandler: @Sendable (PlistStoreError) -> Void
    /// The store's own domain, and the global domain (nil when that is the own one).
    let own: DomainStore
    let global: DomainStore?
    private let local = Mutex(Local())

    private struct Local {
        /// The suites searched after the own domain, in order.
        var suites: [DomainStore] = []
        /// By the exact spelling of their names, as persistent domains are.
        var volatile: [ExactKey: PlistDictionary] = [:]
        /// Every other domain this object used, by the exact spelling of its name; kept alive
        /// (and flushed) as long as this object lives.
        var used: [ExactKey: DomainStore] = [:]
    }

    /// A store for the persistent domain `domain` in `container`.
    /// - Parameters:
    ///   - domain: the persistent domain the store writes (its file is `<domain>.plist`).
    ///   - container: the container that holds the domain files.
    ///   - arguments: the launch arguments without the program name. Each `-key value` pair
    ///     whose value does not start with `-` becomes an entry of the argument domain; a value
    ///     that starts with `{`, `(`, `[`, `<` or `"` is read as a property list when it is
    ///     one, any other as the string, as Foundation reads them.
    ///   - flushDelay: how long after a change the automatic flush starts (in a task that the
    ///     change schedules); nil for none: then only ``synchronize()``, the end of the process
    ///     and deinitialisation flush.
    ///   - errorHandler: receives the errors of the flushes nobody awaits (automatic and at
    ///     exit) and of damaged files found while reading; by default they are written to
    ///     standard error.
    /// - Throws: ``PlistStoreError/Code/invalidName`` when `domain` is not one path component.
    public convenience init(
        domain: String, container: AppContainer,
        arguments: [String] = Array(ProcessInfo.processInfo.arguments.dropFirst()),
        flushDelay: Duration? = .milliseconds(250),
        errorHandler: @escaping @Sendable (PlistStoreError) -> Void = Preferences.printError
    ) throws(PlistStoreError) {
        try AppContainer.validateName(domain)
        self.init(
            validDomain: domain, container: container, arguments: arguments, flushDelay: flushDelay,
            errorHandler: errorHandler)
    }

    private init(
        validDomain domain: String, container: AppContainer,
        arguments: [String] = Array(ProcessInfo.processInfo.arguments.dropFirst()),
        flushDelay: Duration? = .milliseconds(250),
        errorHandler: @escaping @Sendable (PlistStoreError) -> Void = Preferences.printError
    ) {
        self.domain = domain
        self.container = container
        self.flushDelay = flushDelay
        self.errorHandler = errorHandler
        argumentDomain = Self.argumentDomain(arguments)
        own = DomainStore.shared(folder: container.preferencesFolder(forDomain: domain), domain: domain)
        global =
            domain == Self.globalDomain
            ? nil
            : DomainStore.shared(
                folder: container.preferencesFolder(forDomain: Self.globalDomain), domain: Self.globalDomain)
        ExitFlush.register(self)
    }

    /// The store of the app `appID` in ``AppContainer/init(appID:)``'s container, writing the
    /// domain `appID`.
    public convenience init(appID: String) throws(PlistStoreError) {
        try self.init(domain: appID, container: AppContainer(appID: appID))
    }

    deinit {
        ExitFlush.unregister(self)
        flushPending()
    }

    /// Writes `error` to standard error, one line.
    public static let printError: @Sendable (PlistStoreError) -> Void = { error in
        try? FileIO.write(Array("PlistStore: \(error)\n".utf8), to: FileDescriptor.standardError)
    }

    // MARK: Reading

    /// The value for `key` in the first domain of the search list that has it, as the Swift
    /// value `UserDefaults.object(forKey:)` gives: `String`, `Int`, `Double`, `Bool`, `Date`,
    /// `Data`, `[Any]` or `[String: Any]`, so `object(forKey: "name") as? String` works as it
    /// does with Foundation. ``plist(forKey:)`` gives the property-list value itself.
    public func object(forKey key: String) -> Any? { plist(forKey: key)?.propertyListObject }

    /// The property-list value for `key` in the first domain of the search list that has it.
    public func plist(forKey key: String) -> Plist? {
        if let value = argumentDomain[key] { return value }
        var errors: [PlistStoreError] = []
        defer { report(errors) }
        if let value = own.value(forKey: key, &errors) { return value }
        for store in local.withLock({ $0.suites }) where store !== own {
            if let value = store.value(forKey: key, &errors) { return value }
        }
        if let global, let value = global.value(forKey: key, &errors) { return value }
        return own.cache.withLock { $0.registration[key] }
    }

    /// The string, or the text of a number (`string(forKey:)`'s coercion).
    public func string(forKey key: String) -> String? { plist(forKey: key)?.coercedString }

    /// The integer, or 0: reals are truncated, Booleans are 1 or 0, strings give their leading
    /// integer ("42" is 42, "7 apples" is 7, "YES" is 0).
    public func integer(forKey key: String) -> Int { plist(forKey: key)?.coercedInteger ?? 0 }

    /// The number, or 0: integers and Booleans convert, strings give their leading number.
    public func double(forKey key: String) -> Double { plist(forKey: key)?.coercedDouble ?? 0 }

    /// ``double(forKey:)`` as a `Float`.
    public func float(forKey key: String) -> Float { Float(double(forKey: key)) }

    /// The Boolean, or false: numbers are true when non-zero; strings are true when they start
    /// (after spaces, a sign and zeros) with Y, y, T, t or a digit 1–9 ("YES", "true", "1").
    public func bool(forKey key: String) -> Bool { plist(forKey: key)?.coercedBool ?? false }

    /// The URL: a string with a scheme as it is, any other string as a file path (`~` expanded).
    public func url(forKey key: String) -> URL? { plist(forKey: key)?.coercedURL }

    /// The array, if the value is one, with ``object(forKey:)``'s Swift values as elements (so
    /// `array(forKey: "names") as? [String]` works as with `UserDefaults`);
    /// `plist(forKey:)?.array` gives the `Plist` elements.
    public func array(forKey key: String) -> [Any]? {
        plist(forKey: key)?.array.map { $0.map(\.propertyListObject) }
    }

    /// The array, if the value is an array of strings only.
    public func stringArray(forKey key: String) -> [String]? { plist(forKey: key)?.as([String].self) }

    /// The dictionary, if the value is one, with ``object(forKey:)``'s Swift values as values
    /// (so `dictionary(forKey: "window")?["width"] as? Int` works as with `UserDefaults`); two
    /// keys that `String` calls equal are one key (the later entry wins).
    /// `plist(forKey:)?.dictionary` gives the `PlistDictionary`, which keeps both.
    public func dictionary(forKey key: String) -> [String: Any]? {
        plist(forKey: key).flatMap { $0.dictionary == nil ? nil : $0.propertyListObject as? [String: Any] }
    }

    /// The bytes, if the value is data.
    public func data(forKey key: String) -> Data? { plist(forKey: key)?.data }

    /// The value decoded with `PlistDecoder` from its property-list tree, or nil when there is
    /// no value.
    /// - Throws: ``PlistStoreError/Code/invalidValue`` when the value is not a `T`.
    public func decode<T: Decodable>(_ type: T.Type, forKey key: String) throws(PlistStoreError) -> T? {
        guard let value = plist(forKey: key) else { return nil }
        do {
            return try PlistDecoder().decode(type, from: value)
        } catch {
            throw PlistStoreError(.invalidValue, "cannot decode \(T.self): \(error)", path: key)
        }
    }

    /// Every key of the search list with the value a lookup gives, as the Swift values of
    /// ``object(forKey:)`` (as `UserDefaults.dictionaryRepresentation()` gives them).
    public func dictionaryRepresentation() -> [String: Any] {
        Plist.dictionary(plistRepresentation()).propertyListObject as? [String: Any] ?? [:]
    }

    /// Every key of the search list with the value a lookup gives, as property-list values
    /// (keys that `String` calls equal stay apart).
    public func plistRepresentation() -> PlistDictionary {
        var errors: [PlistStoreError] = []
        defer { report(errors) }
        var result = own.cache.withLock { $0.registration }
        for store in searchStores().reversed() {
            result.merge(store.entries(&errors)) { _, new in new }
        }
        result.merge(argumentDomain) { _, new in new }
        return result
    }

    // MARK: Writing

    /// Sets `key` in the store's domain to a property-list value; nil removes it.
    public func set(_ value: Plist?, forKey key: String) {
        var errors: [PlistStoreError] = []
        let schedule = own.set(value, forKey: key, wantsFlush: flushDelay != nil, &errors)
        report(errors)
        if schedule { scheduleFlush(of: own) }
        postChangeNotification()
    }

    /// Sets `key` in the store's domain to a Swift value (a string, a number, a Boolean, a
    /// date, data, a URL, or an array or dictionary of these: a `PlistConvertible`, stored as
    /// `Plist(value)`); nil removes it.
    public func set<Value: PlistConvertible>(_ value: Value?, forKey key: String) {
        set(value?.plistValue, forKey: key)
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
    /// The stores of one domain in a process share it.
    public func register(defaults: PlistDictionary) {
        own.cache.withLock { $0.registration.merge(defaults) { _, new in new } }
    }

    // MARK: Domains

    /// Searches the persistent domain `name` after the store's own (and before the global
    /// domain), as `UserDefaults.addSuite(named:)` does.
    public func addSuite(named name: String) throws(PlistStoreError) {
        try AppContainer.validateName(name)
        let store = store(forDomain: name)
        local.withLock { local in
            if !local.suites.contains(where: { $0 === store }) { local.suites.append(store) }
        }
    }

    /// Stops searching the suite `name`.
    public func removeSuite(named name: String) {
        local.withLock { $0.suites.removeAll { ExactKey($0.name) == ExactKey(name) } }
    }

    /// The entries of the persistent domain `name` as the Swift values of ``object(forKey:)``
    /// (as `UserDefaults` gives them), nil when it has none.
    public func persistentDomain(forName name: String) throws(PlistStoreError) -> [String: Any]? {
        try persistentDomainPlist(forName: name).flatMap { Plist.dictionary($0).propertyListObject as? [String: Any] }
    }

    /// The entries of the persistent domain `name` as property-list values (keys that `String`
    /// calls equal stay apart), nil when it has none.
    public func persistentDomainPlist(forName name: String) throws(PlistStoreError) -> PlistDictionary? {
        try AppContainer.validateName(name)
        var errors: [PlistStoreError] = []
        defer { report(errors) }
        let entries = store(forDomain: name).entries(&errors)
        return entries.isEmpty ? nil : entries
    }

    /// Replaces the persistent domain `name` as a whole, and writes it at once (as Foundation
    /// does). Every store of the domain in this process sees it at once.
    /// - Throws: ``PlistStoreError/Code/invalidName`` for a name that is not one path
    ///   component; the write's error (the domain is then written at the next flush).
    public func setPersistentDomain(_ entries: PlistDictionary, forName name: String)
        throws(PlistStoreError)
    {
        try AppContainer.validateName(name)
        let store = store(forDomain: name)
        var errors: [PlistStoreError] = []
        defer { report(errors) }
        _ = store.change(wantsFlush: false, &errors) { cache in
            var keys = Array(cache.entries.keys)
            for key in entries.keys where cache.entries[key] == nil { keys.append(key) }
            cache.entries = entries
            cache.pending = OrderedDictionary(
                uniqueKeysWithValues: entries.map { (ExactKey($0.key), DomainStore.Change.set($0.value)) })
            cache.replaced = true
            return keys
        }
        postChangeNotification()
        try store.flush(&errors)
    }

    /// Removes the persistent domain `name` (its file), at once.
    /// - Throws: as ``setPersistentDomain(_:forName:)``.
    public func removePersistentDomain(forName name: String) throws(PlistStoreError) {
        try setPersistentDomain([:], forName: name)
    }

    /// The names of the persistent domains that have a file (see
    /// <doc:WherePreferencesLive>).
    public func persistentDomainNames() -> [String] { container.domainNames() }

    /// The volatile domain `name`: kept in memory only and, as in Foundation, not searched.
    public func volatileDomain(forName name: String) -> [String: Any] {
        Plist.dictionary(local.withLock { $0.volatile[ExactKey(name)] ?? [:] }).propertyListObject as? [String: Any]
            ?? [:]
    }

    /// Sets the volatile domain `name`.
    public func setVolatileDomain(_ entries: PlistDictionary, forName name: String) {
        local.withLock { $0.volatile[ExactKey(name)] = entries }
    }

    /// Removes the volatile domain `name`.
    public func removeVolatileDomain(forName name: String) {
        _ = local.withLock { $0.volatile.removeValue(forKey: ExactKey(name)) }
    }

    /// The names of the volatile domains.
    public var volatileDomainNames: [String] { local.withLock { $0.volatile.keys.map(\.string).sorted() } }

    // MARK: Flushing

    /// Writes the changes made in this process to the domains this store used now (each under
    /// its lock, merged key by key with what other processes wrote), and reads the other
    /// processes' changes to them. A domain without changes is not written.
    /// - Throws: the first error; the changes that could not be written stay pending.
    public func synchronize() throws(PlistStoreError) {
        var errors: [PlistStoreError] = []
        var failures: [PlistStoreError] = []
        for store in allStores() {
            do throws(PlistStoreError) { try store.flush(&errors) } catch { failures.append(error) }
        }
        report(errors)
        if let first = failures.first { throw first }
    }

    /// Writes the domains with pending changes; errors go to the handler (exit, deinit).
    func flushPending() {
        var errors: [PlistStoreError] = []
        for store in allStores() where store.hasPendingChanges {
            do throws(PlistStoreError) { try store.flush(&errors) } catch { errors.append(error) }
        }
        report(errors)
    }

    /// Edits the store's own domain and writes it at once, all under the domain's lock, so that
    /// no other writer's change falls between the read and the write: `transform` gets the
    /// entries in the file (with this process's changes on top) and changes them.
    /// `plistconv defaults write -array-add` and `rename` use it.
    /// - Throws: `transform`'s error (nothing is written then) or the write's.
    package func edit(_ transform: (inout PlistDictionary) throws(PlistStoreError) -> Void) throws(PlistStoreError) {
        var errors: [PlistStoreError] = []
        defer { report(errors) }
        try withoutActuallyEscaping(transform) { transform throws(PlistStoreError) in
            try own.flush(&errors, transform: transform)
        }
    }

    /// Edits the value of `key` as `edit(_:)` does: `transform` gets the value in the file and
    /// returns the new one (nil removes the key).
    /// - Throws: `transform`'s error (nothing is written then) or the write's.
    package func update(_ key: String, _ transform: (Plist?) throws(PlistStoreError) -> Plist?) throws(PlistStoreError)
    {
        try edit { entries throws(PlistStoreError) in entries[key] = try transform(entries[key]) }
    }

    /// The entries of the domain `name`'s file in `container` as they are on disk, nil when
    /// there is no file. Reads only: a damaged file is an error and stays where it is.
    /// - Throws: ``PlistStoreError/Code/invalidName``, and as reading a domain file does.
    package static func entriesOnDisk(ofDomain name: String, in container: AppContainer) throws(PlistStoreError)
        -> PlistDictionary?
    {
        try AppContainer.validateName(name)
        let (entries, identity) = try DomainFile(folder: container.preferencesFolder(forDomain: name), domain: name)
            .read()
        return identity == nil ? nil : entries
    }

    // MARK: Stores

    /// The store of the persistent domain `name`, shared with the process's other users of it.
    func store(forDomain name: String) -> DomainStore {
        let key = ExactKey(name)
        if key == ExactKey(domain) { return own }
        if let global, key == ExactKey(Self.globalDomain) { return global }
        if let store = local.withLock({ $0.used[key] }) { return store }
        let store = DomainStore.shared(folder: container.preferencesFolder(forDomain: name), domain: name)
        return local.withLock { local in
            if let existing = local.used[key] { return existing }
            local.used[key] = store
            return store
        }
    }

    /// The persistent domains searched, in order.
    func searchStores() -> [DomainStore] {
        var stores = [own]
        for suite in local.withLock({ $0.suites }) where !stores.contains(where: { $0 === suite }) {
            stores.append(suite)
        }
        if let global, !stores.contains(where: { $0 === global }) { stores.append(global) }
        return stores
    }

    /// Every domain this store used.
    private func allStores() -> [DomainStore] {
        var stores = searchStores()
        for store in local.withLock({ Array($0.used.values) }) where !stores.contains(where: { $0 === store }) {
            stores.append(store)
        }
        return stores
    }

    /// Hands errors found while reading (damaged files moved aside) to the handler.
    func report(_ errors: [PlistStoreError]) {
        errors.forEach(errorHandler)
    }

    /// Flushes `store` after `flushDelay`, in a task; errors go to this store's handler.
    private func scheduleFlush(of store: DomainStore) {
        guard let flushDelay else { return }
        let handler = errorHandler
        Task { [weak store] in
            try? await Task.sleep(for: flushDelay)
            guard let store else { return }
            var errors: [PlistStoreError] = []
            do throws(PlistStoreError) { try store.flush(&errors) } catch { errors.append(error) }
            errors.forEach(handler)
        }
    }

    // MARK: Launch arguments

    /// The argument domain of `arguments`, as Foundation builds it: each `-key value` pair
    /// whose value does not start with `-` (the pair is skipped otherwise, and the value is
    /// looked at as a key), the value trimmed of white space and read by `launchValue`.
    static func argumentDomain(_ arguments: [String]) -> PlistDictionary {
        var result: PlistDictionary = [:]
        var index = 0
        while index + 1 < arguments.count {
            let current = arguments[index]
            let next = arguments[index + 1]
            if current.hasPrefix("-"), !next.hasPrefix("-") {
                let key = String(current.dropFirst())
                if !key.isEmpty { result[key] = launchValue(next) }
                index += 1
            }
            index += 1
        }
        return result
    }

    /// A launch argument's value: trimmed of white space; when it then starts with `{`, `(`,
    /// `[`, `<` or `"`, the property list it is (XML or OpenStep text) if it is one; otherwise
    /// the string.
    static func launchValue(_ text: String) -> Plist {
        let scalars = text.unicodeScalars
        let start = scalars.firstIndex { !$0.properties.isWhitespace } ?? scalars.endIndex
        let end = scalars.lastIndex { !$0.properties.isWhitespace }.map { scalars.index(after: $0) } ?? start
        let value = String(scalars[start..<max(start, end)])
        guard let first = value.unicodeScalars.first, "{([<\"".unicodeScalars.contains(first) else {
            return .string(value)
        }
        let bytes = Array(value.utf8)
        if first == "<", let parsed = try? Plist(xml: bytes) { return parsed }
        if let parsed = try? Plist(openStep: bytes) { return parsed }
        return .string(value)
    }

    /// `text` read as a property list in XML, OpenStep or JSON text, else the string itself
    /// (so `Anna` is the string "Anna", `5` the string "5", `(a,b)` an array), as `defaults
    /// write` reads its values.
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
