import Benchmark
import Foundation
import PlistKit

/// `PlistCore/read` and `Foundation/read` parse the same bytes, written by PlistCore: like Apple's
/// writer, and unlike Foundation's on Linux, it stores each repeated string and number once, and
/// it keeps real UIDs. `Codable/read` decodes bytes written by Foundation. The writers start from
/// the tree, the Foundation object graph or the Codable model.
let benchmarks: @Sendable () -> Void = {
    let mode = RunMode.current
    for file in InputFile.allCases {
        let configuration = mode.configuration(for: file)
        let name = file.rawValue

        Benchmark("PlistCore/read/\(name)", configuration: configuration) { benchmark, bytes in
            for _ in benchmark.scaledIterations {
                blackHole(try Plist(binary: bytes))
            }
        } setup: {
            file.fixture.bytes
        }

        Benchmark("PlistCore/write/\(name)", configuration: configuration) { benchmark, tree in
            for _ in benchmark.scaledIterations {
                blackHole(try tree.binaryBytes())
            }
        } setup: {
            file.fixture.tree
        }

        Benchmark("PlistCore/readXML/\(name)", configuration: configuration) { benchmark, bytes in
            for _ in benchmark.scaledIterations {
                blackHole(try Plist(xml: bytes))
            }
        } setup: {
            file.fixture.xmlBytes
        }

        Benchmark("PlistCore/writeXML/\(name)", configuration: configuration) { benchmark, tree in
            for _ in benchmark.scaledIterations {
                blackHole(try tree.xmlBytes())
            }
        } setup: {
            file.fixture.tree
        }

        Benchmark("Foundation/readXML/\(name)", configuration: configuration) { benchmark, bytes in
            for _ in benchmark.scaledIterations {
                blackHole(try PropertyListSerialization.propertyList(from: bytes, options: [], format: nil))
            }
        } setup: {
            Data(file.fixture.xmlBytes)
        }

        Benchmark("Foundation/writeXML/\(name)", configuration: configuration) { benchmark, object in
            for _ in benchmark.scaledIterations {
                blackHole(try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0))
            }
        } setup: {
            file.fixture.foundationObject
        }

        Benchmark("Foundation/read/\(name)", configuration: configuration) { benchmark, bytes in
            for _ in benchmark.scaledIterations {
                blackHole(try PropertyListSerialization.propertyList(from: bytes, options: [], format: nil))
            }
        } setup: {
            Data(file.fixture.bytes)
        }

        Benchmark("Foundation/write/\(name)", configuration: configuration) { benchmark, object in
            for _ in benchmark.scaledIterations {
                blackHole(try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0))
            }
        } setup: {
            file.fixture.foundationObject
        }
    }
    codableBenchmarks(ITunesLibrary.self, file: .itunesLibrary, mode: mode)
    codableBenchmarks(InfoPlist.self, file: .smallInfo, mode: mode)
}

/// `Codable/read/<file>` and `Codable/write/<file>`, with `Model` matching the file's shape.
func codableBenchmarks<Model: Codable & Sendable>(_: Model.Type, file: InputFile, mode: RunMode) {
    let configuration = mode.configuration(for: file)

    Benchmark("Codable/read/\(file.rawValue)", configuration: configuration) { benchmark, bytes in
        let decoder = PropertyListDecoder()
        for _ in benchmark.scaledIterations {
            blackHole(try decoder.decode(Model.self, from: bytes))
        }
    } setup: {
        try file.fixture.foundationBytes()
    }

    Benchmark("Codable/write/\(file.rawValue)", configuration: configuration) { benchmark, model in
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        for _ in benchmark.scaledIterations {
            blackHole(try encoder.encode(model))
        }
    } setup: {
        try PropertyListDecoder().decode(Model.self, from: Data(file.fixture.bytes))
    }
}
