import Benchmark
import BenchmarkInputs
import Foundation
import PlistKit

/// `PlistCore/read-<format>/<input>` and `Foundation/read-<format>/<input>` parse the same bytes,
/// written by PlistCore (in binary, like Apple's writer and unlike Foundation's on Linux, it stores
/// each repeated string and number once, and it keeps real UIDs). `Codable/read` decodes bytes
/// written by Foundation. The writers start from the tree, the Foundation object graph or the
/// Codable model.
let benchmarks: @Sendable () -> Void = {
    let mode = RunMode.current
    for file in InputFile.allCases {
        let configuration = mode.configuration(for: file)
        for format in BenchFormat.allCases {
            guard format.holds(file) else { continue }
            let name = "\(format.rawValue)/\(file.rawValue)"

            Benchmark("PlistCore/read-\(name)", configuration: configuration) { benchmark, bytes in
                for _ in benchmark.scaledIterations {
                    blackHole(try format.decode(bytes))
                }
            } setup: {
                file.fixture.encoded[format]!
            }

            Benchmark("PlistCore/write-\(name)", configuration: configuration) { benchmark, tree in
                for _ in benchmark.scaledIterations {
                    blackHole(try format.encode(tree))
                }
            } setup: {
                file.fixture.tree
            }

            Benchmark("Foundation/read-\(name)", configuration: configuration) { benchmark, data in
                for _ in benchmark.scaledIterations {
                    blackHole(try format.foundationDecode(data))
                }
            } setup: {
                Data(file.fixture.encoded[format]!)
            }

            if format.foundationWrites {
                Benchmark("Foundation/write-\(name)", configuration: configuration) { benchmark, object in
                    for _ in benchmark.scaledIterations {
                        blackHole(try format.foundationEncode(object))
                    }
                } setup: {
                    try format.foundationWriteInput(file.fixture)
                }
            }
        }
    }
    codableBenchmarks(ITunesLibrary.self, file: .itunesLibrary, mode: mode)
    codableBenchmarks(InfoPlist.self, file: .smallInfo, mode: mode)
    memoryBenchmarks()
    for style in WriterStyle.allCases {
        switch style.input {
        case .smallInfo: writerStyleBenchmarks(InfoPlist.self, style: style, mode: mode)
        default: writerStyleBenchmarks(ITunesLibrary.self, style: style, mode: mode)
        }
    }
    storeBenchmarks()
}

/// Codable decoding and encoding of `Model` (matching the file's shape), binary and XML:
/// `<library>/read-codable/<file>` decodes the bytes Foundation's `PropertyListEncoder` wrote,
/// `<library>/write-codable/<file>` encodes the model; `codable_xml` the same in XML
/// (`codable_xml_parallel`: PlistCore's, by several threads).
func codableBenchmarks<Model: Codable & Sendable>(_: Model.Type, file: InputFile, mode: RunMode) {
    let configuration = mode.configuration(for: file)
    for (name, format) in [("codable", PropertyListSerialization.PropertyListFormat.binary), ("codable_xml", .xml)] {
        let ourFormat: PlistFormat = format == .binary ? .binary : .xml
        let bytes: @Sendable () throws -> Data = {
            let encoder = PropertyListEncoder()
            encoder.outputFormat = format
            return try encoder.encode(try PropertyListDecoder().decode(Model.self, from: Data(file.fixture.bytes)))
        }
        let model: @Sendable () throws -> Model = {
            try PropertyListDecoder().decode(Model.self, from: Data(file.fixture.bytes))
        }

        Benchmark("Foundation/read-\(name)/\(file.rawValue)", configuration: configuration) { benchmark, data in
            let decoder = PropertyListDecoder()
            for _ in benchmark.scaledIterations {
                blackHole(try decoder.decode(Model.self, from: data))
            }
        } setup: {
            try bytes()
        }

        Benchmark("PlistCore/read-\(name)/\(file.rawValue)", configuration: configuration) { benchmark, data in
            let decoder = PlistDecoder()
            for _ in benchmark.scaledIterations {
                blackHole(try decoder.decode(Model.self, from: data))
            }
        } setup: {
            try bytes()
        }

        Benchmark("Foundation/write-\(name)/\(file.rawValue)", configuration: configuration) { benchmark, model in
            let encoder = PropertyListEncoder()
            encoder.outputFormat = format
            for _ in benchmark.scaledIterations {
                blackHole(try encoder.encode(model))
            }
        } setup: {
            try model()
        }

        Benchmark("PlistCore/write-\(name)/\(file.rawValue)", configuration: configuration) { benchmark, model in
            let encoder = PlistEncoder()
            encoder.outputFormat = ourFormat
            for _ in benchmark.scaledIterations {
                blackHole(try encoder.encode(model))
            }
        } setup: {
            try model()
        }

        // XML written by up to 8 threads (`PlistEncoder.parallelism`; the default is one),
        // as `<library>/write-codable_xml_parallel/<file>`: ratios.sh sets it against
        // Foundation's `write-codable_xml`.
        if ourFormat == .xml {
            Benchmark("PlistCore/write-\(name)_parallel/\(file.rawValue)", configuration: configuration) {
                benchmark, model in
                let encoder = PlistEncoder()
                encoder.outputFormat = ourFormat
                encoder.parallelism = 8
                for _ in benchmark.scaledIterations {
                    blackHole(try encoder.encode(model))
                }
            } setup: {
                try model()
            }
        }
    }
}

/// The inputs as other writers lay them out (`WriterStyle`), read by both libraries from the
/// same bytes: `<library>/read-xml/<name>` into a tree or Foundation's objects,
/// `<library>/read-codable_xml/<name>` into `Model`. Their sorted counterparts are
/// `read-xml/<input>` and `read-codable_xml/<input>`.
func writerStyleBenchmarks<Model: Decodable & Sendable>(_: Model.Type, style: WriterStyle, mode: RunMode) {
    let configuration = mode.configuration(for: style.input)
    Benchmark("PlistCore/read-xml/\(style.name)", configuration: configuration) { benchmark, bytes in
        for _ in benchmark.scaledIterations {
            blackHole(try Plist(xml: bytes))
        }
    } setup: {
        style.xml
    }

    Benchmark("Foundation/read-xml/\(style.name)", configuration: configuration) { benchmark, data in
        for _ in benchmark.scaledIterations {
            blackHole(try PropertyListSerialization.propertyList(from: data, options: [], format: nil))
        }
    } setup: {
        Data(style.xml)
    }

    Benchmark("PlistCore/read-codable_xml/\(style.name)", configuration: configuration) { benchmark, data in
        let decoder = PlistDecoder()
        for _ in benchmark.scaledIterations {
            blackHole(try decoder.decode(Model.self, from: data))
        }
    } setup: {
        Data(style.xml)
    }

    Benchmark("Foundation/read-codable_xml/\(style.name)", configuration: configuration) { benchmark, data in
        let decoder = PropertyListDecoder()
        for _ in benchmark.scaledIterations {
            blackHole(try decoder.decode(Model.self, from: data))
        }
    } setup: {
        Data(style.xml)
    }
}
