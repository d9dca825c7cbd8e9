import Foundation
import FuzzSupport

// Seeds: binary xml openstep json

/// A model with every kind of Codable value, for the decoder to meet in arbitrary bytes.
struct Model: Codable, Equatable {
    enum Kind: Codable, Equatable {
        case plain
        case tagged(String, count: Int)
    }
    struct Inner: Codable, Equatable {
        var name: String?
        var flags: [Bool]
        var values: [String: Double]
    }
    var small: Int8?
    var unsigned: UInt64?
    var text: String?
    var when: Date?
    var blob: Data?
    var link: URL?
    var kind: Kind?
    var inner: Inner?
    var list: [Inner]?
    var numbers: [Int: Float]?
}

// Whatever the decoder (binary files straight from the bytes, others through the tree) accepts
// must encode, in binary and XML, and decode back to the same model. Decoding errors count as
// the input being refused; anything else (a crash, a changed model) stops the fuzzer.
FuzzCheck.main { bytes throws(PlistError) in
    let model: Model
    do {
        model = try PlistDecoder().decode(Model.self, from: Data(bytes))
    } catch {
        throw PlistError(.emptyInput, at: 0)
    }
    for format in [PlistFormat.binary, .xml] {
        let encoder = PlistEncoder()
        encoder.outputFormat = format
        do {
            let back = try PlistDecoder().decode(Model.self, from: try encoder.encode(model))
            // Reals compare by value here: NaN never equals itself, so it is left out.
            if back != model, "\(back)" != "\(model)" {
                fatalError("\(format) changed \(model) to \(back)")
            }
        } catch {
            fatalError("\(format) does not round-trip \(model): \(error)")
        }
    }
    do {
        return try PlistEncoder().encodeToPlist(model)
    } catch {
        fatalError("encodeToPlist refused \(model): \(error)")
    }
}
