import WireFormat

/// Turns a metadata decoding failure into a reason in words.
package enum MetadataDecoding {
    /// Why the document could not be decoded, naming the member when there is one.
    package static func reason(of error: any Error) -> String {
        guard let field = DecodingFailure.member(of: error) else { return "it is not a JSON object" }
        return "“\(field)” has the wrong type"
    }
}
