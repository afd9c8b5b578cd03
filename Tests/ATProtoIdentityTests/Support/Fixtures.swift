import Foundation

/// A DID document as a PLC directory serves it, with the values the identity tests share.
enum Fixtures {
    static let did = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"
    static let otherDID = "did:plc:2222222222222222222222aa"
    static let handle = "alice.example.com"
    static let pds = "https://pds.example.com"

    static func didDocument(
        id: String = did,
        alsoKnownAs: [String] = ["at://\(handle)"],
        serviceID: String = "#atproto_pds",
        type: String = "AtprotoPersonalDataServer",
        endpoint: String = pds
    ) -> [String: Any] {
        [
            "@context": ["https://www.w3.org/ns/did/v1"],
            "id": id,
            "alsoKnownAs": alsoKnownAs,
            "verificationMethod": [] as [Any],
            "service": [["id": serviceID, "type": type, "serviceEndpoint": endpoint]],
        ]
    }

    static func data(_ object: Any) throws -> Data {
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }
}
