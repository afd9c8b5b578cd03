public import ATProtoSyntax
public import Foundation
import HTTPTransport

/// The parts of a DID document this client uses: its `id`, its `alsoKnownAs` handles and its services
/// (atproto.com/specs/did).
///
/// Decoding is lenient about members the client does not use, so an unusual service entry does not hide the
/// PDS; the checks that matter are ``check(for:)`` and ``personalDataServer(allowHTTPLoopback:)``.
public struct DIDDocument: Sendable, Hashable, Decodable {
    /// The service id fragment of the account's PDS.
    public static let pdsServiceID = "#atproto_pds"
    /// The service type of the account's PDS.
    public static let pdsServiceType = "AtprotoPersonalDataServer"

    /// The DID the document says it describes.
    public let id: String
    /// The `alsoKnownAs` URIs, such as `at://alice.example.com`, in document order.
    public let alsoKnownAs: [String]
    /// The services that have an `id`, in document order.
    public let services: [Service]

    /// Creates a document from its parts.
    public init(id: String, alsoKnownAs: [String] = [], services: [Service] = []) {
        self.id = id
        self.alsoKnownAs = alsoKnownAs
        self.services = services
    }

    /// Decodes a document from JSON; throws ``IdentityError/invalidDIDDocument(_:field:)`` when it is not one.
    public init(json: Data) throws {
        do {
            self = try JSONDecoder().decode(DIDDocument.self, from: json)
        } catch {
            throw IdentityError.invalidDIDDocument("it is not a JSON DID document with a string “id”", field: "id")
        }
    }

    /// The handle: the first `at://` entry of `alsoKnownAs`, or `nil` when there is none or it is not a handle.
    public var handle: Handle? {
        guard let entry = alsoKnownAs.first(where: { $0.hasPrefix("at://") }) else { return nil }
        return try? Handle(validating: String(entry.dropFirst("at://".count)))
    }

    /// Checks that the document describes `did`: its `id` must be exactly the DID (atproto.com/specs/did).
    public func check(for did: DID) throws {
        guard id == did.rawValue else {
            throw IdentityError.invalidDIDDocument("the document for \(did) says its id is “\(id)”", field: "id")
        }
    }

    /// The PDS: the `#atproto_pds` service of type `AtprotoPersonalDataServer`, as a normalized https origin.
    ///
    /// The service id may be `#atproto_pds` or `<id>#atproto_pds`. With `allowHTTPLoopback`, an `http` loopback
    /// origin is accepted too. Throws ``IdentityError/invalidDIDDocument(_:field:)`` naming the failed check.
    public func personalDataServer(allowHTTPLoopback: Bool = false) throws -> URL {
        let ids: Set = [Self.pdsServiceID, id + Self.pdsServiceID]
        guard let service = services.first(where: { ids.contains($0.id) }) else {
            throw IdentityError.invalidDIDDocument("it has no \(Self.pdsServiceID) service", field: "service")
        }
        guard service.types.contains(Self.pdsServiceType) else {
            let types = service.types.isEmpty ? "no type" : "type \(service.types.joined(separator: ", "))"
            throw IdentityError.invalidDIDDocument(
                "its \(Self.pdsServiceID) service has \(types), not \(Self.pdsServiceType)",
                field: "service"
            )
        }
        guard let endpoint = service.endpoint, let url = URL(string: endpoint) else {
            throw IdentityError.invalidDIDDocument(
                "its \(Self.pdsServiceID) service has no serviceEndpoint URL",
                field: "serviceEndpoint"
            )
        }
        do {
            return try OriginURL.normalize(url, allowHTTPLoopback: allowHTTPLoopback)
        } catch {
            throw IdentityError.invalidDIDDocument(
                "its PDS endpoint is unusable: \(error.reason)",
                field: "serviceEndpoint"
            )
        }
    }

    private enum CodingKeys: String, CodingKey {
        case id, alsoKnownAs, service
    }

    /// Decodes the document, skipping `alsoKnownAs` entries that are not strings and services without an `id`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.id = try container.decode(String.self, forKey: .id)
        let aliases = (try? container.decodeIfPresent([Lenient<String>].self, forKey: .alsoKnownAs)) ?? nil
        self.alsoKnownAs = aliases?.compactMap(\.value) ?? []
        let services = (try? container.decodeIfPresent([Lenient<Service>].self, forKey: .service)) ?? nil
        self.services = services?.compactMap(\.value) ?? []
    }
}

/// A JSON value kept when it decodes as `Value` and ignored otherwise, so one odd entry does not fail an array.
struct Lenient<Value: Decodable & Sendable>: Decodable, Sendable {
    /// The value, or `nil` when the JSON value is something else.
    let value: Value?

    init(from decoder: any Decoder) throws {
        self.value = try? Value(from: decoder)
    }
}
