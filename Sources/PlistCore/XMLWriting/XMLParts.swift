import Dispatch
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a large `FlatPlist` is written as XML by several threads: the entries of one container,
/// in the order they are written, are cut into chunks that the threads take as they go. The
/// first thread writes the document, taking chunks from the front when it reaches the
/// container; the others take chunks from the back, each into text of its own, until none is
/// left. Their text then goes in its place, in order. The bytes are the same as one thread's.
///
/// Taking chunks as they go, and not parts cut in advance, keeps the threads busy whatever
/// the rest of the document holds and however fast each one runs: on a virtual machine the
/// second processor's page faults were at times much slower, and with fixed halves the
/// first thread then waited about as long as it had saved.
///
/// The container is found from the top by going into any child that holds more than half of
/// the nodes: in an iTunes library, the dictionary of tracks.
struct XMLParts {
    /// The container whose entries are shared, and its depth.
    let container: Int32
    let depth: Int
    /// The container's entries in the order they are written; an array's with key -1.
    private let entries: [(key: Int32, value: Int32)]
    private let chunkSize: Int
    /// The chunks not taken yet: `front..<back`.
    private let claims: Claims

    /// How many threads write a document of `nodes` nodes when up to `limit` may: one per
    /// processor, and at most one per 32,768 nodes (about 1.5 MB of XML, a few milliseconds of
    /// writing), so that a smaller document is written on the calling thread alone.
    static func threads(forNodes nodes: Int, atMost limit: Int) -> Int { max(1, min(limit, processors, nodes >> 15)) }

    /// Asked once, and only when more threads are allowed: asking the system costs more than
    /// writing a small document (docs/PERFORMANCE.md, "Threads").
    private static let processors = ProcessInfo.processInfo.activeProcessorCount

    /// How many chunks the entries are cut into, at most: small enough that a thread waits
    /// little for the last one, large enough that taking one costs nothing next to writing it.
    static let chunkCount = 128

    init(container: Int32, depth: Int, entries: [(key: Int32, value: Int32)]) {
        self.container = container
        self.depth = depth
        self.entries = entries
        chunkSize = max(1, (entries.count + Self.chunkCount - 1) / Self.chunkCount)
        claims = Claims(chunks: (entries.count + chunkSize - 1) / chunkSize)
    }

    /// The entries of chunk `chunk`.
    private func entries(ofChunk chunk: Int) -> ArraySlice<(key: Int32, value: Int32)> {
        entries[chunk * chunkSize..<min(entries.count, (chunk + 1) * chunkSize)]
    }

    /// Writes the container's entries from the front, as long as chunks are left: what the
    /// first thread does when it reaches the container.
    func writeFront(with writer: inout FlatXMLWriter, into text: inout XMLOutput) throws(PlistError) {
        while let chunk = claims.takeFront() { try write(chunk, with: &writer, into: &text) }
    }

    private func write(_ chunk: Int, with writer: inout FlatXMLWriter, into text: inout XMLOutput)
        throws(PlistError)
    {
        for (key, child) in entries(ofChunk: chunk) {
            try writer.entry(key: key, value: child, depth: depth + 1, into: &text)
        }
    }

    /// The document `writer` writes, written by `threads` threads; `nil` when writing failed
    /// (a value too deep, or the text past the limit) or the container is not in the document.
    /// Writing on one thread then gives the error: which thread fails first is a matter of
    /// timing, and where a thread's text passes the limit is not where the document's does.
    func write(with writer: FlatXMLWriter, threads: Int, options: PlistWriteOptions, capacity: Int) -> [UInt8]? {
        let slots = (0..<threads).map { _ in WrittenPartSlot() }
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var writer = writer
            var part = WrittenPart(text: XMLOutput(options: options, capacity: capacity, isPart: thread > 0))
            defer { slots[thread].store(part) }
            do throws(PlistError) {
                if thread == 0 {
                    writer.parts = self
                    try writer.value(0, depth: 0, into: &part.text)
                    part.partsOffset = writer.partsOffset
                    return
                }
                while let chunk = claims.takeBack() {
                    let start = part.text.count
                    try write(chunk, with: &writer, into: &part.text)
                    part.chunks.append((chunk, start..<part.text.count))
                }
            } catch {
                claims.takeAll()
                part.failed = true
            }
        }
        var parts = slots.map { $0.take() }
        // A container that is not written (the first value of a key added again) has no place.
        guard !parts.contains(where: \.failed), parts[0].partsOffset >= 0 else { return nil }
        var chunks: [(chunk: Int, text: ArraySlice<UInt8>)] = []
        for part in parts.dropFirst() {
            let text = part.text.part
            for (chunk, range) in part.chunks { chunks.append((chunk, text[range])) }
        }
        chunks.sort { $0.chunk < $1.chunk }
        guard (try? parts[0].text.insert(chunks.map(\.text), at: parts[0].partsOffset)) != nil else { return nil }
        return parts[0].text.finish()
    }
}

/// The chunks of `XMLParts` not taken yet.
private final class Claims: Sendable {
    private let range: Mutex<Range<Int>>

    init(chunks: Int) { range = Mutex(0..<chunks) }

    func takeFront() -> Int? {
        range.withLock { range in range.popFirst() }
    }

    func takeBack() -> Int? {
        range.withLock { range in range.popLast() }
    }

    /// Leaves no chunk for the other threads: one failed, and the document is written again
    /// on one thread.
    func takeAll() {
        range.withLock { range in range = range.upperBound..<range.upperBound }
    }
}

/// What one thread writes: the first, the document, with where the others' chunks go in it;
/// the others, chunks, each with its range in their text.
private struct WrittenPart {
    var text: XMLOutput
    var partsOffset = -1
    var chunks: [(chunk: Int, range: Range<Int>)] = []
    var failed = false
}

/// Where a thread leaves its `WrittenPart` for the thread that called `write`.
private final class WrittenPartSlot: Sendable {
    private let part = Mutex<WrittenPart?>(nil)

    func store(_ written: sending WrittenPart) {
        part.withLock { part in part = written }
    }

    /// The part, left here no more, so that it holds the only reference to its text.
    func take() -> WrittenPart {
        part.withLock { part in part.take()! }
    }
}

extension FlatXMLWriter {
    /// The container whose entries the threads writing the document share (see `XMLParts`);
    /// `nil` when there is none with two entries or more.
    mutating func parts(maxDepth: Int) -> XMLParts? {
        let total = flat.nodes.count
        var node: Int32 = 0
        var end = total
        for depth in 0..<maxDepth {
            let kind = flat.nodes[Int(node)].kind
            guard kind == .array || kind == .dictionary, flat.nodes[Int(node)].count > 1 else { return nil }
            if let heavy = flat.children(of: node).first(where: { size(of: $0, end: end) > total / 2 }) {
                end = Int(heavy) + size(of: heavy, end: end)
                node = heavy
                continue
            }
            guard kind == .dictionary else {
                return XMLParts(container: node, depth: depth, entries: flat.children(of: node).map { (-1, $0) })
            }
            let start = pushEntries(of: node)
            defer { entries.stack.removeSubrange(start...) }
            return XMLParts(container: node, depth: depth, entries: Array(entries.stack[start...]))
        }
        return nil
    }

    /// About how many nodes the value at `child`, a container's child, has: those up to the
    /// next child, or up to `end` (where the container's nodes end) for the last. The encoder
    /// adds a value's nodes together; where that does not hold (a container filled late), the
    /// container found is only less central.
    private func size(of child: Int32, end: Int) -> Int {
        let next = flat.nodes[Int(child)].next
        let limit = next > child ? Int(next) : next < 0 ? end : Int(child) + 1
        return max(1, limit - Int(child))
    }
}
