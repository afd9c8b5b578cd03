extension DIDDocument {
    /// One entry of a DID document's `service` array (W3C DID Core §5.4), as far as this client reads it.
    public struct Service: Sendable, Hashable, Decodable {
        /// The service `id`, such as `#atproto_pds`.
        public let id: String
        /// The service `type` values; DID Core allows a string or an array of strings.
        public let types: [String]
        /// The `serviceEndpoint` when it is a string; `nil` for a map or a set of endpoints.
        public let endpoint: String?

        /// Creates a service entry.
        public init(id: String, types: [String], endpoint: String?) {
            self.id = id
            self.types = types
            self.endpoint = endpoint
        }

        private enum CodingKeys: String, CodingKey {
            case id, type, serviceEndpoint
        }

        /// Decodes an entry; `type` may be a string or an array, and a non-string endpoint is kept as `nil`.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.id = try container.decode(String.self, forKey: .id)
            if let single = try? container.decode(String.self, forKey: .type) {
                self.types = [single]
            } else {
                let several = (try? container.decode([Lenient<String>].self, forKey: .type)) ?? []
                self.types = several.compactMap(\.value)
            }
            self.endpoint = try? container.decode(String.self, forKey: .serviceEndpoint)
        }
    }
}
