/// What a `JSONDecoder` failure says about the input, for messages that name the member at fault.
public enum DecodingFailure {
    /// The top-level JSON member a decoding error concerns, when it names one.
    public static func member(of error: any Error) -> String? {
        guard let error = error as? DecodingError else { return nil }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return context.codingPath.first?.stringValue
        case .keyNotFound(let key, _):
            return key.stringValue
        @unknown default:
            return nil
        }
    }
}
