extension [UInt128] {
    /// Sorts items that each hold the first 12 bytes of a sort key above a 32-bit index
    /// (`prefix << 32 | index`, the prefix a big-endian integer that orders the keys it tells
    /// apart): as integers, which orders most items without reading a key; then each run of items
    /// sharing their prefix by `order` (of two indices: negative, zero or positive). Returns false
    /// when `order` finds two items equal (their order among themselves is then unspecified).
    ///
    /// The writers' key order (`KeyOrder`) and the XML scanner's index of a dictionary's keys
    /// both sort so.
    package mutating func sortByPrefix(thenBy order: (_ first: Int, _ second: Int) -> Int) -> Bool {
        sort()
        var distinct = true
        var run = 0
        for index in 1...Swift.max(1, count) where index == count || self[index] >> 32 != self[run] >> 32 {
            if index - run > 1 {
                self[run..<index].sort { order(Self.index($0), Self.index($1)) < 0 }
                for next in run + 1..<index where order(Self.index(self[next - 1]), Self.index(self[next])) == 0 {
                    distinct = false
                }
            }
            run = index
        }
        return distinct
    }

    /// The index an item holds.
    package static func index(_ item: UInt128) -> Int {
        Int(UInt32(truncatingIfNeeded: item))
    }
}
