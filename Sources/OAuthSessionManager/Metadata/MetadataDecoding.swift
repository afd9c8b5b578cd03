/// Turns a metadata decoding failure into the member it concerns and a reason in words.
enum MetadataDecoding {
    /// The JSON member a decoding error concerns, when it names one.
    static func field(of error: any Error) -> String? {
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

    /// Why the document could not be decoded, naming the member when there is one.
    static func reason(of error: any Error) -> String {
        guard let field = field(of: error) else { return "it is not a JSON object" }
        return "“\(field)” has the wrong type"
    }
}
