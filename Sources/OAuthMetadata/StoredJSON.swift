package import Foundation

/// The JSON form of what the store keeps (sessions, pending sign-ins, the client key set), inside its encryption:
/// dates in seconds since 1970, keys sorted.
package enum StoredJSON {
    /// Encodes a stored value.
    package static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    /// Decodes a stored value.
    package static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()
}
