public import Failures
import Foundation
public import OAuthMetadata

extension ClientKey {
    /// The key's private JWK had no readable 32-byte `d`.
    public struct UnreadablePrivateScalar: CategorizedError, Hashable {
        /// Creates the error.
        public init() {}

        /// The key cannot be used for what the test looks for.
        public var category: FailureCategory { .failed }

        /// This machine: the key the test holds.
        public var origin: FailureOrigin { .machine }

        /// What happened, in words.
        public var description: String { "the client key's private JWK has no readable 32-byte “d”" }
    }

    /// Every way the private scalar `d` could show in output, a log or a database dump: as the JWK spells it
    /// (base64url), in standard base64 (with and without padding), in hex, and as the hex of the JWK's text (how
    /// `pg_dump` and `psql` show a `bytea` column holding the JWK unsealed); for tests that look for a leak.
    public func printedFormsOfPrivateScalar() throws -> [String] {
        guard let jwk = try JSONSerialization.jsonObject(with: privateJWK) as? [String: Any],
            let encoded = jwk["d"] as? String
        else { throw UnreadablePrivateScalar() }
        var base64 = encoded.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let scalar = Data(base64Encoded: base64), scalar.count == 32 else { throw UnreadablePrivateScalar() }
        return [
            encoded, base64, base64.replacingOccurrences(of: "=", with: ""), Self.hex(scalar),
            Self.hex(Data(encoded.utf8)),
        ]
    }

    private static func hex(_ bytes: Data) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}
