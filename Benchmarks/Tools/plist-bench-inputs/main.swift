import BenchmarkInputs
import Foundation
import PlistKit

// Writes every benchmark input, in every format it can be written in, into the folder given:
// `<input>.binary.plist`, `<input>.xml.plist`, ... (the report converts and measures these files).
guard CommandLine.arguments.count == 2 else {
    print("usage: plist-bench-inputs FOLDER")
    exit(2)
}
let folder = CommandLine.arguments[1]
for input in InputFile.allCases {
    for (format, bytes) in input.fixture.encoded {
        try PlistFile.write(bytes, to: "\(folder)/\(input.rawValue).\(format.rawValue).plist")
    }
}
