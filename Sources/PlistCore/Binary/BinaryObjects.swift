/// The objects of a `bplist00` file, read one at a time as a decoder asks for them, without
/// building the whole `Plist`: PlistKit's Codable decoder reads binary files through it.
///
/// It trusts nothing in the input, as `Plist(binary:)` does. Before anything is decoded, the
/// containers reachable from the top are weighed, counting shared references at every use: a
/// cycle, more values than `maxObjects` or more string and data bytes than `maxContentBytes`
/// (as a small file whose shared references describe 2^64 values has) is refused at once, so
/// no decoder can be made to read more. Containers are entered at most `maxDepth` deep.
package final class BinaryObjects {
    package enum Kind { case array, dictionary, scalar }

    private let bytes: [UInt8]
    private let trailer: BinaryTrailer
    // What changes is in one struct, so that each call costs one exclusivity check.
    private var state: BinaryObjectState

    /// Checks the header, trailer and offset table of `bytes`.
    package init(_ bytes: [UInt8], options: PlistReadOptions) throws(PlistError) {
        self.bytes = bytes
        trailer = try BinaryTrailer(bytes.span, maxObjects: options.maxObjects)
        try trailer.validateOffsets(bytes.span)
        state = BinaryObjectState(trailer: trailer, options: options)
        var weights = [Int32](repeating: 0, count: trailer.objectCount)
        var memo: [(Int, Int)] = []
        _ = try state.weigh(bytes.span, trailer.topObject, depth: 0, &weights, &memo)
    }

    /// The top object.
    package var top: Int { trailer.topObject }

    /// Where object `ref` starts in the file.
    package func offset(of ref: Int) -> Int {
        let bytes = self.bytes
        return trailer.offset(of: ref, in: bytes.span)
    }

    package func kind(of ref: Int) -> Kind {
        switch bytes[offset(of: ref)] >> 4 {
        case 0xA, 0xC: .array
        case 0xD: .dictionary
        default: .scalar
        }
    }

    /// Whether object `ref` is the string `$null`, Foundation's `nil` in a container.
    package func isNull(_ ref: Int) -> Bool {
        let offset = offset(of: ref)
        return bytes[offset] == 0x55 && offset + 6 <= trailer.tableOffset
            && bytes[offset + 1..<offset + 6].elementsEqual("$null".utf8)
    }

    /// Object `ref` if it is a scalar; nil for an array or a dictionary.
    package func scalar(_ ref: Int) throws(PlistError) -> Plist? {
        let bytes = self.bytes
        let offset = trailer.offset(of: ref, in: bytes.span)
        switch bytes[offset] >> 4 {
        case 0xA, 0xC, 0xD: return nil
        default: return try state.scalar(bytes.span, ref)
        }
    }

    /// The element references of the array `ref`, entered inside `depth` containers.
    package func elements(of ref: Int, depth: Int) throws(PlistError) -> [Int] {
        let bytes = self.bytes
        return try state.elements(bytes.span, ref, at: offset(of: ref), depth: depth)
    }

    /// The key numbers and value references of the dictionary `ref`, entered inside `depth`
    /// containers. A repeated key keeps its first place and its last value, as in `Plist(binary:)`.
    package func entries(of ref: Int, depth: Int) throws(PlistError) -> (keys: [Int32], values: [Int]) {
        let bytes = self.bytes
        return try state.entries(bytes.span, ref, at: offset(of: ref), depth: depth)
    }

    /// The text of key number `number`.
    package func keyText(_ number: Int32) -> String { state.keyTexts[Int(number)] }

    /// The number of the key with text `text`, if any dictionary read so far has that key.
    package func keyNumber(of text: String) -> Int32? { state.keyNumberOfText[text] }
}

/// What `BinaryObjects` learns and counts as it reads.
private struct BinaryObjectState {
    let trailer: BinaryTrailer
    let options: PlistReadOptions
    var decoder: ObjectDecoder
    /// Dictionary keys get numbers, equal texts the same number, so that containers compare
    /// keys as numbers and each key's text is decoded once. Per object: its key number, or -1
    /// before it is first used as a key.
    var keyNumberOfObject: [Int32]
    var keyNumberOfText: [String: Int32] = [:]
    /// The text of each key number.
    var keyTexts: [String] = []
    /// Per key number: the last dictionary (by `dictionaryCount`) that used it.
    var keyLastSeen: [Int] = []
    var dictionaryCount = 0

    init(trailer: BinaryTrailer, options: PlistReadOptions) {
        self.trailer = trailer
        self.options = options
        decoder = ObjectDecoder(trailer: trailer, options: options)
        keyNumberOfObject = Array(repeating: -1, count: trailer.objectCount)
    }

    mutating func scalar(_ bytes: Span<UInt8>, _ ref: Int) throws(PlistError) -> Plist {
        try decoder.object(bytes, ref, depth: 0).value
    }

    mutating func elements(_ bytes: Span<UInt8>, _ ref: Int, at offset: Int, depth: Int) throws(PlistError) -> [Int] {
        try enter(at: offset, depth: depth)
        let (count, start) = try decoder.length(bytes, bytes[offset], at: offset, unit: trailer.referenceSize)
        var elements: [Int] = []
        elements.reserveCapacity(count)
        for index in 0..<count {
            elements.append(try decoder.reference(bytes, at: start + index * trailer.referenceSize))
        }
        return elements
    }

    mutating func entries(
        _ bytes: Span<UInt8>, _ ref: Int, at offset: Int, depth: Int
    ) throws(PlistError) -> (keys: [Int32], values: [Int]) {
        try enter(at: offset, depth: depth)
        let (count, start) = try decoder.length(bytes, bytes[offset], at: offset, unit: 2 * trailer.referenceSize)
        dictionaryCount += 1
        var keys: [Int32] = []
        keys.reserveCapacity(count)
        var values: [Int] = []
        values.reserveCapacity(count)
        var hasRepeatedKey = false
        for index in 0..<count {
            let number = try keyNumber(bytes, try decoder.reference(bytes, at: start + index * trailer.referenceSize))
            hasRepeatedKey = hasRepeatedKey || keyLastSeen[Int(number)] == dictionaryCount
            keyLastSeen[Int(number)] = dictionaryCount
            keys.append(number)
            values.append(try decoder.reference(bytes, at: start + (count + index) * trailer.referenceSize))
        }
        guard hasRepeatedKey else { return (keys, values) }
        var firstPlace: [Int32: Int] = [:]
        var uniqueKeys: [Int32] = []
        var uniqueValues: [Int] = []
        for (key, value) in zip(keys, values) {
            if let place = firstPlace[key] {
                uniqueValues[place] = value
            } else {
                firstPlace[key] = uniqueKeys.count
                uniqueKeys.append(key)
                uniqueValues.append(value)
            }
        }
        return (uniqueKeys, uniqueValues)
    }

    /// How many values object `ref` stands for when expanded (itself included), and how many
    /// bytes of string and data. `weights` holds per container 0 (not weighed yet), -1 (being
    /// weighed: met again, it is a cycle) or its index in `memo` plus one. The walk stops at
    /// `maxDepth`, so its recursion is bounded.
    mutating func weigh(
        _ bytes: Span<UInt8>, _ ref: Int, depth: Int, _ weights: inout [Int32], _ memo: inout [(Int, Int)]
    ) throws(PlistError) -> (values: Int, contentBytes: Int) {
        let offset = trailer.offset(of: ref, in: bytes)
        let marker = bytes[offset]
        switch marker >> 4 {
        case 0x4, 0x5: return (1, try decoder.length(bytes, marker, at: offset, unit: 1).count)
        case 0x6: return (1, 2 * (try decoder.length(bytes, marker, at: offset, unit: 2).count))
        case 0xA, 0xC, 0xD: break
        default: return (1, 0)
        }
        guard weights[ref] == 0 else {
            guard weights[ref] > 0 else { throw PlistError(.cycle(object: ref), at: offset) }
            return memo[Int(weights[ref]) - 1]
        }
        guard depth < options.maxDepth else { throw PlistError(.tooDeep(limit: options.maxDepth), at: offset) }
        weights[ref] = -1
        let isDictionary = marker >> 4 == 0xD
        let (count, start) = try decoder.length(
            bytes, marker, at: offset, unit: (isDictionary ? 2 : 1) * trailer.referenceSize)
        // Keys are counted as they are read: each is decoded once, however often it is used.
        let firstValue = isDictionary ? start + count * trailer.referenceSize : start
        var total = (values: 1, contentBytes: 0)
        for index in 0..<count {
            let child = try weigh(
                bytes, try decoder.reference(bytes, at: firstValue + index * trailer.referenceSize), depth: depth + 1,
                &weights, &memo)
            let (values, valuesOverflow) = total.values.addingReportingOverflow(child.values)
            guard !valuesOverflow, values <= options.maxObjects else {
                throw PlistError(.tooManyObjects(limit: options.maxObjects), at: offset)
            }
            let (content, contentOverflow) = total.contentBytes.addingReportingOverflow(child.contentBytes)
            guard !contentOverflow, content <= options.maxContentBytes else {
                throw PlistError(.tooMuchContent(limit: options.maxContentBytes), at: offset)
            }
            total = (values, content)
        }
        memo.append(total)
        weights[ref] = Int32(memo.count)
        return total
    }

    private func enter(at offset: Int, depth: Int) throws(PlistError) {
        guard depth < options.maxDepth else { throw PlistError(.tooDeep(limit: options.maxDepth), at: offset) }
    }

    private mutating func keyNumber(_ bytes: Span<UInt8>, _ ref: Int) throws(PlistError) -> Int32 {
        if keyNumberOfObject[ref] >= 0 { return keyNumberOfObject[ref] }
        let offset = trailer.offset(of: ref, in: bytes)
        let marker = bytes[offset]
        guard marker >> 4 == 0x5 || marker >> 4 == 0x6 else {
            throw PlistError(.nonStringKey(marker: marker), at: offset)
        }
        guard case .string(let text) = try scalar(bytes, ref) else {
            preconditionFailure("a 0x5X or 0x6X object decodes to a string")
        }
        let number = keyNumberOfText[text, default: Int32(keyTexts.count)]
        if number == keyTexts.count {
            keyNumberOfText[text] = number
            keyTexts.append(text)
            keyLastSeen.append(0)
        }
        keyNumberOfObject[ref] = number
        return number
    }
}
