public import Configuration
public import PlistKit

/// A swift-configuration snapshot of a property-list file in any format this package reads
/// (binary, XML, OpenStep, GNUstep, `.strings`, JSON), for `FileProvider` and, with the
/// `Reloading` trait of swift-configuration, `ReloadingFileProvider`:
///
/// ```swift
/// let provider = try await ReloadingFileProvider<PlistConfigSnapshot>(filePath: "/etc/app/config.plist")
/// let config = ConfigReader(provider: provider)
/// let port = config.int(forKey: "http.port", default: 8080)
/// // The provider reloads the file while its `run()` runs, in a ServiceGroup or a task.
/// ```
///
/// A key's components walk nested dictionaries (`http.port` is the `port` entry of the `http`
/// dictionary). Integers convert to doubles and Booleans, reals to integers when exact, as
/// swift-configuration's own property-list snapshot converts them; any other mismatch is an error.
public struct PlistConfigSnapshot: Sendable {
    /// How the file is read.
    public struct ParsingOptions: FileParsingOptions {
        /// The reader's limits.
        public var readOptions: PlistReadOptions
        /// Which values are secrets (kept out of logs), by dot-separated key.
        public var secretsSpecifier: SecretsSpecifier<String, Plist>

        /// Options with the reader's default limits and no secrets.
        public init(readOptions: PlistReadOptions = .init(), secretsSpecifier: SecretsSpecifier<String, Plist> = .none)
        {
            self.readOptions = readOptions
            self.secretsSpecifier = secretsSpecifier
        }

        public static var `default`: Self { .init() }
    }

    /// The file's top-level dictionary.
    public let root: PlistDictionary
    public let providerName: String
    let secretsSpecifier: SecretsSpecifier<String, Plist>
}

/// A value that is missing the type asked for, or a file whose top level is not a dictionary.
public struct PlistConfigError: Error, CustomStringConvertible, Sendable {
    public var description: String
}

extension PlistConfigSnapshot: FileConfigSnapshot {
    public init(data: RawSpan, providerName: String, parsingOptions: ParsingOptions) throws {
        let value = try data.withUnsafeBytes { buffer in
            try Plist(bytes: Array(buffer), options: parsingOptions.readOptions)
        }
        guard case .dictionary(let root) = value else {
            throw PlistConfigError(
                description: "\(providerName): the top level of the property list is not a dictionary")
        }
        self.root = root
        self.providerName = providerName
        secretsSpecifier = parsingOptions.secretsSpecifier
    }

    public func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        let encodedKey = key.components.joined(separator: ".")
        var current: Plist? = .dictionary(root)
        for component in key.components { current = current?.dictionary?[component] }
        guard let current else { return LookupResult(encodedKey: encodedKey, value: nil) }
        guard let content = Self.content(current, as: type) else {
            throw PlistConfigError(
                description:
                    "\(providerName): the value at \(encodedKey) is not \(type.rawValue.first.map { "aeiou".contains($0) } == true ? "an" : "a") \(type.rawValue)"
            )
        }
        return LookupResult(
            encodedKey: encodedKey,
            value: ConfigValue(content, isSecret: secretsSpecifier.isSecret(key: encodedKey, value: current)))
    }

    public var description: String { "\(providerName)[\(root.count) values]" }
    public var debugDescription: String { description }

    private static func content(_ value: Plist, as type: ConfigType) -> ConfigContent? {
        func int(_ value: Plist) -> Int? {
            switch value {
            case .integer(let number): number.int
            case .real(let number): Int(exactly: number)
            case .bool(let flag): flag ? 1 : 0
            default: nil
            }
        }
        func double(_ value: Plist) -> Double? {
            switch value {
            case .real(let number): number
            case .integer(let number):
                number.int64.flatMap { Double(exactly: $0) } ?? number.uint64.flatMap { Double(exactly: $0) }
            case .bool(let flag): flag ? 1 : 0
            default: nil
            }
        }
        func bool(_ value: Plist) -> Bool? {
            switch value {
            case .bool(let flag): flag
            case .integer(let number): number.int64.map { $0 != 0 } ?? true
            case .real(let number): number != 0
            default: nil
            }
        }
        func all<T>(_ convert: (Plist) -> T?) -> [T]? {
            guard let elements = value.array else { return nil }
            let converted = elements.compactMap(convert)
            return converted.count == elements.count ? converted : nil
        }
        switch type {
        case .string: return value.string.map { .string($0) }
        case .int: return int(value).map { .int($0) }
        case .double: return double(value).map { .double($0) }
        case .bool: return bool(value).map { .bool($0) }
        case .bytes: return value.data.map { .bytes(Array($0)) }
        case .stringArray: return all(\.string).map { .stringArray($0) }
        case .intArray: return all(int).map { .intArray($0) }
        case .doubleArray: return all(double).map { .doubleArray($0) }
        case .boolArray: return all(bool).map { .boolArray($0) }
        case .byteChunkArray: return all { $0.data.map(Array.init) }.map { .byteChunkArray($0) }
        }
    }
}
