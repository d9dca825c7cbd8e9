import Dispatch
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writing the XML of a `FlatPlist`'s values on another thread while the encoder is still
/// adding the rest: the part of the plist kept by the thread building it.
///
/// When a value ends (its `encode(to:)` returned) and it has between `minNodes` and
/// `maxNodes` nodes, none of them in a value written ahead already, its nodes and bytes are
/// copied (they lie together, after its own node) into a batch; full batches go to an
/// `XMLPrewriter`, which writes each value's text at its depth on a thread of its own. The
/// XML writer then copies a value's text where it would have written the value. In an iTunes
/// library that is each track and playlist: encoding 20,000 tracks and writing them take turns
/// no more. The other thread also sorts the key names into CoreFoundation's order as they come.
///
/// The other thread reads only the copies, so nothing is shared while the encoder goes on. A
/// value changed after its end (only through an encoder or container kept past it) makes the
/// text unusable: `changing` notes it, and the writer then writes everything itself. The writer
/// does not wait for the other thread: what is not written when it starts, it writes itself.
package struct XMLPrewriting {
    /// Which values are written ahead, and when.
    package struct Limits: Sendable {
        /// Values are written ahead once the plist has this many nodes: a smaller one is
        /// written in a moment, and a thread would cost more than it saves.
        let startNodes: Int
        /// The fewest and most nodes of a value written ahead: with fewer, copying it and
        /// finding its text cost about what writing it does; with more, writing it would keep
        /// the other thread busy while the document is written, if the value ends late.
        let minNodes: Int
        let maxNodes: Int
        /// How many nodes a batch holds before it goes to the other thread: enough that handing
        /// it over costs nothing next to writing it, few enough that the batch still being
        /// written when the document is (whose values the writer then writes itself) is small.
        let batchNodes: Int

        package static let standard = Limits(startNodes: 16_384, minNodes: 8, maxNodes: 65_536, batchNodes: 16_384)

        package init(startNodes: Int, minNodes: Int, maxNodes: Int, batchNodes: Int) {
            self.startNodes = startNodes
            self.minNodes = minNodes
            self.maxNodes = maxNodes
            self.batchNodes = batchNodes
        }
    }

    /// Whether writing ahead can save time here: only with a second processor. Asked once:
    /// asking the system took about 18 µs, most of a small document's encoding.
    package static let helps = ProcessInfo.processInfo.activeProcessorCount > 1

    let options: PlistWriteOptions
    let limits: Limits
    private var prewriter: XMLPrewriter?
    private var batch = PrewriteBatch()
    /// One bit per node: whether it is in a value written ahead.
    private var prewritten: [UInt64] = []
    /// How many of the plist's key names went to the prewriter already.
    private var namesSent = 0
    /// False once a value written ahead changed.
    private var isUsable = true

    init(options: PlistWriteOptions, limits: Limits) {
        self.options = options
        self.limits = limits
    }

    /// Takes the value at `root` (its nodes from `root` on, its strings and data in `bytes`,
    /// and the key names of the plist) to be written ahead; false when it is not.
    mutating func take(
        _ root: Int32, depth: Int, nodes: ArraySlice<FlatPlist.Node>, bytes: ArraySlice<UInt8>, keys: [String]
    ) -> Bool {
        guard isUsable, (limits.minNodes...limits.maxNodes).contains(nodes.count) else { return false }
        if prewriter == nil {
            guard nodes.endIndex >= limits.startNodes else { return false }
            prewriter = XMLPrewriter(options: options)
        }
        batch.units.append(
            PrewriteUnit(
                root: root, depth: depth, nodeCount: nodes.count, firstByte: bytes.startIndex, byteCount: bytes.count))
        batch.nodes.append(contentsOf: nodes)
        batch.bytes.append(contentsOf: bytes)
        mark(Int(root)..<nodes.endIndex)
        if batch.nodes.count >= limits.batchNodes { send(keys: keys) }
        return true
    }

    /// Sends the batch to the other thread, with the key names numbered since the last.
    private mutating func send(keys: [String]) {
        batch.newNames = Array(keys[namesSent...])
        namesSent = keys.count
        prewriter!.write(&batch)
    }

    /// Marks `nodes` as written ahead.
    private mutating func mark(_ nodes: Range<Int>) {
        let words = (nodes.upperBound + 63) >> 6
        if prewritten.count < words {
            prewritten.append(contentsOf: repeatElement(0, count: max(words, 2 * prewritten.count) - prewritten.count))
        }
        var node = nodes.lowerBound
        while node < nodes.upperBound {
            let bits = min(64 - node & 63, nodes.upperBound - node)
            prewritten[node >> 6] |= (bits == 64 ? ~0 : (1 << UInt64(bits)) - 1) << UInt64(node & 63)
            node += bits
        }
    }

    /// Notes that `node` changes: if it is in a value written ahead, no text written ahead is used.
    mutating func changing(_ node: Int32) {
        guard isUsable, prewritten[Int(node) >> 6] & (1 << UInt64(node & 63)) != 0 else { return }
        isUsable = false
        stop()
    }

    /// Stops the other thread after the batch it is writing.
    func stop() { prewriter?.stop() }

    /// Waits until the other thread has written every batch sent: for tests, whose counts of
    /// values written ahead would otherwise depend on timing.
    package func waitForWriting() { prewriter?.waitForBatches() }

    /// Sends the last batch, with the plist's key names `keys`: the plist is complete.
    mutating func finish(keys: [String]) {
        guard isUsable, prewriter != nil, !batch.units.isEmpty else { return }
        send(keys: keys)
    }

    /// The text written ahead so far, for an XML document of a plist of `nodeCount` nodes
    /// written with `options`; `nil` when there is none to use. Stops the other thread: the
    /// values of batches not written by now are written by the caller.
    func written(nodeCount: Int, options: PlistWriteOptions) -> PrewrittenValues? {
        guard let prewriter, isUsable, options == self.options else { return nil }
        let (batches, sortedKeys) = prewriter.finish()
        return PrewrittenValues(batches, sortedKeys: sortedKeys, nodeCount: nodeCount)
    }
}

/// Values to write ahead: copies of their nodes and bytes, one after another.
struct PrewriteBatch: Sendable {
    var units: [PrewriteUnit] = []
    var nodes: [FlatPlist.Node] = []
    var bytes: [UInt8] = []
    /// The plist's key names numbered since the previous batch.
    var newNames: [String] = []

    /// Empties the batch, keeping its room: a batch's buffers are used again, their pages
    /// faulted in already.
    mutating func removeAll() {
        units.removeAll(keepingCapacity: true)
        nodes.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
        newNames.removeAll(keepingCapacity: true)
    }
}

/// A value in a `PrewriteBatch`: where its nodes and bytes were in the plist.
struct PrewriteUnit: Sendable {
    let root: Int32
    let depth: Int
    let nodeCount: Int
    let firstByte: Int
    let byteCount: Int
}

/// The text of values written ahead.
struct PrewrittenValues: Sendable {
    /// The text of each batch written.
    let texts: [[UInt8]]
    /// Per value: its node and depth, and its text in its batch's.
    let values: [PrewrittenValue]
    /// Per node of the plist: the index of its value in `values`, or -1.
    private let valueOfNode: [Int32]
    /// The plist's first key names in CoreFoundation's order, and each one's `orderWord`, when
    /// the writing sorts keys.
    private let sortedKeys: XMLPrewriter.SortedKeys?

    init(_ batches: [XMLPrewriter.WrittenBatch], sortedKeys: XMLPrewriter.SortedKeys?, nodeCount: Int) {
        self.sortedKeys = sortedKeys
        texts = batches.map(\.text)
        values = batches.flatMap(\.values)
        var valueOfNode = [Int32](repeating: -1, count: nodeCount)
        for (index, value) in values.enumerated() where value.root < nodeCount {
            valueOfNode[Int(value.root)] = Int32(index)
        }
        self.valueOfNode = valueOfNode
    }

    /// The positions of `names`, the plist's key names, in CoreFoundation's order: those sorted
    /// ahead, with the names numbered after them put in their places; `nil` when there are none.
    func sortedKeys(completing names: [String]) -> [Int]? {
        guard var sorted = sortedKeys, sorted.words.count <= names.count else { return nil }
        let added = sorted.words.count..<names.count
        sorted.words.append(contentsOf: names[added].map(KeyOrder.orderWord))
        return KeyOrder.merging(sorted.order, added, of: names, words: sorted.words)
    }

    /// The index in `values` of the value at `node`, if it was written ahead.
    func index(of node: Int32) -> Int? {
        let index = Int(valueOfNode[Int(node)])
        return index >= 0 ? index : nil
    }

    /// The value at `node`, if it was written ahead at `depth`.
    func value(at node: Int32, depth: Int) -> PrewrittenValue? {
        guard let index = index(of: node), values[index].depth == depth else { return nil }
        return values[index]
    }
}

/// A value written ahead: its node and depth, and where its text is.
struct PrewrittenValue: Sendable {
    let root: Int32
    let depth: Int
    let batch: Int
    let text: Range<Int>
}

/// The other thread of `XMLPrewriting`: writes the values of each batch into a text of the batch.
final class XMLPrewriter: Sendable {
    /// The text of a batch, and its values.
    struct WrittenBatch: Sendable {
        let text: [UInt8]
        let values: [PrewrittenValue]
    }

    /// The key names of the batches written, in CoreFoundation's order (positions), and the
    /// `orderWord` of each, by number: the writer's sorting of the keys, made ahead.
    struct SortedKeys: Sendable {
        var order: [Int] = []
        var words: [UInt64] = []
    }

    /// What the thread keeps from batch to batch.
    private struct Work: Sendable {
        /// The plist's key names, by number.
        var names: [String] = []
        /// Per key number of the plist: its number in the batch being written, if `numbered`
        /// holds the batch's number there.
        var local: [Int32] = []
        var numbered: [Int] = []
        var batches = 0
        var sortedKeys = SortedKeys()
    }

    private let options: PlistWriteOptions
    private let queue = DispatchQueue(label: "PlistCore.XMLPrewriter")
    private let group = DispatchGroup()
    private let work = Mutex(Work())
    /// Batches sent and not taken yet, first first; batches written, emptied for use again.
    private let sent = Mutex<[PrewriteBatch]>([])
    private let spare = Mutex<[PrewriteBatch]>([])
    private let written = Mutex<[WrittenBatch]>([])
    private let sortedKeys = Mutex<SortedKeys?>(nil)
    private let stopped = Atomic<Bool>(false)

    init(options: PlistWriteOptions) { self.options = options }

    /// Writes the values of `batch` on the other thread, unless stopped before it starts, and
    /// leaves an empty batch in its place (one written already when there is one). The batch
    /// is moved, not copied, so that the other thread holds the only reference to its buffers.
    func write(_ batch: inout PrewriteBatch) {
        var full = spare.withLock { $0.popLast() } ?? PrewriteBatch()
        swap(&full, &batch)
        sent.withLock { sent in
            sent.append(PrewriteBatch())
            swap(&sent[sent.count - 1], &full)
        }
        queue.async(group: group) { [self] in
            var batch = sent.withLock { $0.removeFirst() }
            if !stopped.load(ordering: .relaxed) {
                let text = work.withLock { write(&batch, work: &$0) }
                written.withLock { $0.append(text) }
            }
            batch.removeAll()
            spare.withLock { spare in
                spare.append(PrewriteBatch())
                swap(&spare[spare.count - 1], &batch)
            }
        }
    }

    /// Leaves the batches not started unwritten.
    func stop() { stopped.store(true, ordering: .relaxed) }

    /// Stops, and returns the batches written and the keys sorted, without waiting for the
    /// batch being written: if this thread is slow or waits for a processor, the caller writes
    /// the rest itself.
    func finish() -> (batches: [WrittenBatch], sortedKeys: SortedKeys?) {
        stop()
        return (written.withLock { $0 }, sortedKeys.withLock { $0 })
    }

    /// Waits until the batches sent are written (or left, once stopped).
    func waitForBatches() { group.wait() }

    private func write(_ batch: inout PrewriteBatch, work: inout Work) -> WrittenBatch {
        work.batches += 1
        work.names.append(contentsOf: batch.newNames)
        if options.sortsKeys {
            let added = work.sortedKeys.words.count..<work.names.count
            work.sortedKeys.words.append(contentsOf: work.names[added].map(KeyOrder.orderWord))
            work.sortedKeys.order = KeyOrder.merging(
                work.sortedKeys.order, added, of: work.names, words: work.sortedKeys.words)
            sortedKeys.withLock { $0 = work.sortedKeys }
        }
        if work.local.count < work.names.count {
            work.local.append(contentsOf: repeatElement(-1, count: work.names.count - work.local.count))
            work.numbered.append(contentsOf: repeatElement(0, count: work.names.count - work.numbered.count))
        }
        var keyNames: [String] = []
        var valid: [Bool] = []
        var nodeStart = 0
        var byteStart = 0
        for unit in batch.units {
            valid.append(
                renumber(
                    &batch.nodes, unit: unit, at: nodeStart, bytesAt: byteStart, keyNames: &keyNames, work: &work))
            nodeStart += unit.nodeCount
            byteStart += unit.byteCount
        }
        return write(batch, valid: valid, keyNames: keyNames)
    }

    /// Writes the values of `batch`, renumbered, that are `valid`, with the keys `keyNames`.
    private func write(_ batch: borrowing PrewriteBatch, valid: [Bool], keyNames: [String]) -> WrittenBatch {
        let number = written.withLock { $0.count }
        let flat = FlatPlist(nodes: batch.nodes, bytes: batch.bytes, keyNames: keyNames)
        var text = XMLOutput(options: options, capacity: flat.xmlCapacity, isPart: true)
        var values: [PrewrittenValue] = []
        var writer = FlatXMLWriter(flat: flat, sortsKeys: options.sortsKeys)
        var nodeStart = 0
        for (unit, isValid) in zip(batch.units, valid) {
            defer { nodeStart += unit.nodeCount }
            guard isValid else { continue }
            let start = text.count
            do throws(PlistError) {
                try writer.value(Int32(nodeStart), depth: unit.depth, into: &text)
                values.append(
                    PrewrittenValue(root: unit.root, depth: unit.depth, batch: number, text: start..<text.count))
            } catch {
                text.truncate(to: start)
                // Past the limit, every later value would be too.
                if case .outputTooLarge = error.kind { break }
            }
        }
        return WrittenBatch(text: text.part, values: values)
    }

    /// Renumbers the copied nodes of `unit`, from `start` in `nodes`, for the batch: nodes
    /// from `start`, bytes from `byteStart`, keys as numbered in `keyNames`. False when a link
    /// or range leads outside the copy, and the value is then not written ahead: the way
    /// `FlatPlist` adds nodes rules that out (a node links only to nodes added after it, and
    /// all of those up to the value's end are in the copy), and checking keeps a mistake there
    /// from becoming a trap on this thread.
    private func renumber(
        _ nodes: inout [FlatPlist.Node], unit: PrewriteUnit, at start: Int, bytesAt byteStart: Int,
        keyNames: inout [String], work: inout Work
    ) -> Bool {
        let root = Int(unit.root)
        let nodeRange = root..<root + unit.nodeCount
        let byteRange = unit.firstByte..<unit.firstByte + unit.byteCount
        func local(_ node: Int64) -> Int64? {
            nodeRange.contains(Int(node)) && Int(node) != root ? node - Int64(root) + Int64(start) : nil
        }
        for index in start..<start + unit.nodeCount {
            var node = nodes[index]
            if index == start {
                node.key = -1
                node.next = -1
            } else {
                if node.next >= 0 {
                    guard let next = local(Int64(node.next)) else { return false }
                    node.next = Int32(next)
                }
                if node.key >= 0 {
                    guard Int(node.key) < work.names.count else { return false }
                    node.key = localKey(node.key, names: &keyNames, work: &work)
                }
            }
            switch node.kind {
            case .array, .dictionary:
                guard node.count > 0 else { break }
                guard let first = local(Int64(node.payload & 0xFFFF_FFFF)), let last = local(Int64(node.payload >> 32))
                else { return false }
                node.payload = UInt64(first) | UInt64(last) << 32
            case .string, .data:
                let range = Int(node.payload)..<Int(node.payload) + Int(node.count)
                guard range.lowerBound >= byteRange.lowerBound, range.upperBound <= byteRange.upperBound else {
                    return false
                }
                node.payload = UInt64(range.lowerBound - byteRange.lowerBound + byteStart)
            case .signed, .unsigned, .real, .bool, .date: break
            }
            nodes[index] = node
        }
        return true
    }

    /// The number in the batch being written of the plist's key `key`.
    private func localKey(_ key: Int32, names keyNames: inout [String], work: inout Work) -> Int32 {
        let key = Int(key)
        if work.numbered[key] == work.batches { return work.local[key] }
        work.numbered[key] = work.batches
        work.local[key] = Int32(keyNames.count)
        keyNames.append(work.names[key])
        return work.local[key]
    }
}
