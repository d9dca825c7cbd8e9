#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a decoding error's value is in the text it was read from, for text decoded through a
/// `Plist` tree, which keeps no positions: OpenStep, JSON, and the XML documents the scanner
/// leaves to libxml2. When a value does not fit its type, the text is read again, this time
/// noting where the values on the error's coding path begin. (Binary files and the XML the
/// scanner reads are decoded in place, and their errors placed from the document itself.)
extension PlistDecoder {
    /// `error` with `, at line L, column C` in its debug description: where its value begins in
    /// `bytes`, or the deepest value on its coding path that is there (the dictionary of a
    /// missing key). Unchanged for an error at the top value.
    static func locating(
        _ error: DecodingError, in bytes: [UInt8], format: PlistFormat, top: Plist, options: PlistValueDecoder.Options,
        readOptions: PlistReadOptions
    ) -> DecodingError {
        guard let context = error.context else { return error }
        let steps = Self.steps(along: context.codingPath, in: top, options: options)
        let position: TextPosition?
        switch format {
        case .xml: position = Plist.position(of: steps, inXML: bytes.span, options: readOptions)
        case .openStep, .strings: position = Plist.position(of: steps, inOpenStep: bytes, options: readOptions)
        case .json: position = Plist.position(of: steps, inJSON: bytes, options: readOptions)
        case .binary: position = nil
        }
        guard let position else { return error }
        var description = context.debugDescription
        if description.hasSuffix(".") { description.removeLast() }
        description += ", at line \(position.line), column \(position.column)."
        return error.with(
            .init(
                codingPath: context.codingPath, debugDescription: description, underlyingError: context.underlyingError)
        )
    }

    /// The keys and indexes in `top` of the values on `codingPath`, as far as they are there.
    /// Keys are matched as the decoder matches them, through the key strategy.
    static func steps(
        along codingPath: [any CodingKey], in top: Plist, options: PlistValueDecoder.Options
    ) -> [PlistPathStep] {
        var steps: [PlistPathStep] = []
        var node = top
        for (depth, codingKey) in codingPath.enumerated() {
            switch node {
            case .array(let elements):
                guard let index = codingKey.intValue, elements.indices.contains(index) else { return steps }
                steps.append(.index(index))
                node = elements[index]
            case .dictionary(let entries):
                let found = entries.first { key, _ in
                    options.codingKeyName(of: key, at: Array(codingPath[..<depth])) == codingKey.stringValue
                }
                guard let (key, value) = found else { return steps }
                steps.append(.key(key))
                node = value
            default:
                return steps
            }
        }
        return steps
    }
}

extension DecodingError {
    var context: Context? {
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            context
        @unknown default: nil
        }
    }

    /// The same error with `context`.
    func with(_ context: Context) -> DecodingError {
        switch self {
        case .typeMismatch(let type, _): .typeMismatch(type, context)
        case .valueNotFound(let type, _): .valueNotFound(type, context)
        case .keyNotFound(let key, _): .keyNotFound(key, context)
        case .dataCorrupted: .dataCorrupted(context)
        @unknown default: self
        }
    }
}
