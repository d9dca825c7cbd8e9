package import PlistCore

extension FlatPlist {
    /// `value` as a `FlatPlist`, built as the Codable encoder builds one; `nil` when it holds a
    /// UID, which Codable values never hold.
    package init?(_ value: Plist) {
        self.init()
        guard (try? add(value, to: -1, key: .none)) != nil else { return nil }
    }

    private mutating func add(_ value: Plist, to parent: Int32, key: FlatPlist.Key) throws {
        switch value {
        case .array(let elements):
            let node = addContainer(.array, to: parent, key: key)
            for element in elements { try add(element, to: node, key: .none) }
        case .dictionary(let entries):
            let node = addContainer(.dictionary, to: parent, key: key)
            for (entryKey, entry) in entries { try add(entry, to: node, key: .name(entryKey)) }
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
