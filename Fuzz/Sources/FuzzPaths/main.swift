import FuzzSupport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Seeds: binary xml

// Every way the library reads an input gives the verdict and the value of reading it whole
// (`Plist(bytes:)`), with the same limits: for binary input, opening it lazily, `check()`,
// streaming it to XML (`writeXML`, against `xmlBytes` of the value read whole) and the value
// and type at every key path (at most 64) of a file that reads; for XML input, streaming it to
// binary (`PlistFile.convertXMLToBinary`, through files in a temporary folder), which reads back
// to the value. plistconv's own paths (the automatic switch, lint) are compared in-process by
// PathAgreementTests.

let options = FuzzCheck.limits
let folder: String = {
    var template = Array("/tmp/fuzz-paths-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { fatalError("cannot make a temporary folder") }
    return String(cString: made)
}()

/// The value of reading `bytes` whole, or its error.
func whole(_ bytes: [UInt8]) -> Result<Plist, PlistError> {
    Result { () throws(PlistError) in try Plist(bytes: bytes, options: options) }
}

func expect(_ condition: Bool, _ problem: @autoclosure () -> String, _ bytes: [UInt8]) {
    if !condition { fatalError("\(problem())\ninput: \(bytes)") }
}

/// Binary input through the lazy reader.
func binaryPaths(_ bytes: [UInt8], _ reference: Result<Plist, PlistError>) {
    let file: BinaryPlistFile
    do {
        file = try BinaryPlistFile(bytes: bytes, options: options)
    } catch {
        // Opening reads the header, trailer and offset table, with the whole-file reader's errors.
        expect(reference == .failure(error), "opening failed with \(error), reading whole \(reference)", bytes)
        return
    }
    let checked = Result { () throws(PlistError) in try file.check() }
    switch (reference, checked) {
    case (.success, .success): break
    case (.failure(let error), .failure(let checkError)):
        expect(error == checkError, "check() failed with \(checkError), reading whole with \(error)", bytes)
    default: expect(false, "check() gave \(checked), reading whole \(reference)", bytes)
    }
    var streamed: [UInt8] = []
    let streaming = Result { () throws(PlistError) in
        try file.writeXML { chunk throws(PlistError) in streamed += chunk }
    }
    switch reference {
    case .failure(let error):
        guard case .failure(let streamError) = streaming, streamError == error else {
            return expect(false, "writeXML gave \(streaming), reading whole failed with \(error)", bytes)
        }
        expect(streamed.isEmpty, "writeXML wrote before it failed", bytes)
    case .success(let value):
        let written = Result { () throws(PlistError) in try value.xmlBytes() }
        switch (written, streaming) {
        case (.success(let expected), .success): expect(streamed == expected, "writeXML wrote other bytes", bytes)
        case (.failure(let error), .failure(let streamError)):
            expect(error == streamError, "writeXML failed with \(streamError), xmlBytes with \(error)", bytes)
        default: expect(false, "writeXML gave \(streaming), xmlBytes \(written)", bytes)
        }
        var paths: [[String]] = [["missing"]]
        collect(value, [], into: &paths)
        for components in paths {
            let path = PlistKeyPath(components: components)
            let expected = Result { () throws(PlistError) in try value.value(at: path) }
            let lazy = Result { () throws(PlistError) in try file.value(at: path) }
            expect(lazy == expected, "value at \(components): \(lazy), whole \(expected)", bytes)
            let type = Result { () throws(PlistError) in try file.type(at: path) }
            expect(type == expected.map(\.type), "type at \(components): \(type)", bytes)
        }
    }
}

/// The key paths of `value`'s values, depth first, up to 64.
func collect(_ value: Plist, _ path: [String], into paths: inout [[String]]) {
    guard paths.count < 64 else { return }
    switch value {
    case .array(let elements):
        for (index, element) in elements.enumerated() {
            paths.append(path + [String(index)])
            collect(element, path + [String(index)], into: &paths)
        }
    case .dictionary(let entries):
        for (key, element) in entries {
            paths.append(path + [key])
            collect(element, path + [key], into: &paths)
        }
    default: break
    }
}

/// XML input streamed to binary through files.
func xmlPaths(_ bytes: [UInt8], _ reference: Result<Plist, PlistError>) {
    let input = folder + "/input.xml"
    let output = folder + "/output.plist"
    guard (try? PlistFile.write(bytes, to: input)) != nil else { fatalError("cannot write \(input)") }
    let converted = Result { () throws(PlistError) in
        try PlistFile.convertXMLToBinary(at: input, toFile: output, readOptions: options)
    }
    switch (reference, converted) {
    case (.success(let value), .success):
        let back = Result { () throws(PlistError) in try Plist(contentsOf: output) }
        expect(back == .success(value), "streamed to binary, it reads as \(back), whole \(value)", bytes)
    case (.failure, .failure): break  // libxml2's push parser may word the error otherwise
    default: expect(false, "streaming to binary gave \(converted), reading whole \(reference)", bytes)
    }
    unlink(output)
}

FuzzCheck.run { bytes in
    let reference = whole(bytes)
    switch PlistFormat.detect(bytes) {
    case .binary: binaryPaths(bytes, reference)
    case .xml: xmlPaths(bytes, reference)
    default: break
    }
}
