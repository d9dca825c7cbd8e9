import Foundation
import PlistKit

// Encodes a large generated model as XML with `PlistEncoder` in a process of its own, and
// reports how many threads the process had before and after: `ThreadTests` runs it, since in
// the test runner other tests start and end threads at any time.
//
// Arguments: the number of items (dictionaries of 10 entries) and `parallelism`. Prints
// `threads <before> <after>` on standard error and the XML on standard output.

/// One item of the model: 10 keys.
struct Item: Encodable {
    var id: Int
    var name: String
    var artist: String
    var size: Int
    var seconds: Double
    var rating: Int
    var added: Date
    var explicit: Bool
    var kind: String
    var location: String

    init(_ index: Int) {
        id = index
        name = "Item \(index) <&>"
        artist = "Artist \(index % 97)"
        size = index * 12_345
        seconds = Double(index) / 7
        rating = index % 100
        added = Date(timeIntervalSinceReferenceDate: Double(index) * 86_400.5)
        explicit = index % 3 == 0
        kind = index % 2 == 0 ? "MPEG audio file" : "AAC audio file"
        location = "file:///Music/\(index).m4a"
    }
}

/// The number of threads of this process, from /proc/self/status.
func threadCount() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in status.split(separator: "\n") where line.hasPrefix("Threads:") {
        return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) ?? -1
    }
    return -1
}

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: plist-thread-probe <items> <parallelism>\n".utf8))
    exit(2)
}
let items = (0..<arguments[0]).map(Item.init)
let encoder = PlistEncoder()
encoder.outputFormat = .xml
encoder.parallelism = arguments[1]
let before = threadCount()
let bytes = try encoder.encodeToBytes(items)
let after = threadCount()
FileHandle.standardError.write(Data("threads \(before) \(after)\n".utf8))
FileHandle.standardOutput.write(Data(bytes))
