import OrderedCollections
package import PlistCore

extension FlatPlist {
    /// `value` as a `FlatPlist`, built as the Codable encoder builds one; `nil` when it holds a
    /// UID, which Codable values never hold.
    package init?(_ value: Plist) {
        self.init()
        guard (try? add(value, to: -1, key: .none, depth: 0)) != nil else { return nil }
    }

    /// `value` as a `FlatPlist` whose values are written ahead as XML with `options` as the
    /// Codable encoder has them written (`XMLPrewriting`), within `limits`.
    package init?(_ value: Plist, prewritingXML options: PlistWriteOptions, limits: XMLPrewriting.Limits) {
        self.init()
        prewriteXML(options: options, limits: limits)
        guard (try? add(value, to: -1, key: .none, depth: 0)) != nil else { return nil }
        prewritingEnded()
    }

    private mutating func add(_ value: Plist, to parent: Int32, key: FlatPlist.Key, depth: Int) throws {
        let bytesFrom = bytes.count
        switch value {
        case .array(let elements):
            let node = addContainer(.array, to: parent, key: key)
            for element in elements { try add(element, to: node, key: .none, depth: depth + 1) }
            valueEnded(node, depth: depth, bytesFrom: bytesFrom)
        case .dictionary(let entries):
            let node = addContainer(.dictionary, to: parent, key: key)
            for (entryKey, entry) in entries { try add(entry, to: node, key: .name(entryKey), depth: depth + 1) }
            valueEnded(node, depth: depth, bytesFrom: bytesFrom)
        case .string(let string): try add(FlatPlist.Scalar.string(string), to: parent, key: key)
        case .integer(let integer):
            try add(integer.int64.map(FlatPlist.Scalar.signed) ?? .unsigned(integer.uint64!), to: parent, key: key)
        case .real(let real): try add(FlatPlist.Scalar.real(real), to: parent, key: key)
        case .bool(let bool): try add(FlatPlist.Scalar.bool(bool), to: parent, key: key)
        case .date(let date): try add(FlatPlist.Scalar.date(date), to: parent, key: key)
        case .data(let data): try add(FlatPlist.Scalar.data(data), to: parent, key: key)
        case .uid: throw PlistError(.unrepresentable(keyPath: "", type: "uid", format: "FlatPlist"), at: 0)
        }
    }
}
