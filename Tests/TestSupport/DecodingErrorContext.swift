extension DecodingError {
    /// The context of any kind of decoding error.
    public var context: Context? {
        switch self {
        case .typeMismatch(_, let context), .dataCorrupted(let context), .valueNotFound(_, let context),
            .keyNotFound(_, let context):
            context
        @unknown default: nil
        }
    }
}
