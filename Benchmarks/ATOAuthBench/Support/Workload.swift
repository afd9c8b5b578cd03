import Crypto
import Foundation
import WireFormat

/// The fixed inputs of the micro-benchmarks, shaped like a real Bluesky call.
enum Workload {
    /// A PDS XRPC URL, the `htu` of every proof.
    static let htu = "https://morel.us-east.host.bsky.network/xrpc/com.atproto.server.getSession"

    /// A server nonce: 16 bytes in base64url, as the reference server sends.
    static let nonce = "q2Hv8WLx0pLZb3cE1sT9Ng"

    /// A fixed `iat`.
    static let issuedAt = Date(timeIntervalSince1970: 1_767_225_600)

    /// An access token the length of a Bluesky OAuth access token (an ES256K JWT, about 750 characters).
    static let accessToken: String = {
        var seed = Array("atoauth-bench".utf8)
        var payload: [UInt8] = []
        while payload.count < 520 {
            seed = Array(SHA256.hash(data: seed))
            payload += seed
        }
        let signature = Array(SHA256.hash(data: payload)) + Array(SHA256.hash(data: seed))
        return "eyJ0eXAiOiJhdCtqd3QiLCJhbGciOiJFUzI1NksifQ." + Base64URL.encode(payload.prefix(520)) + "."
            + Base64URL.encode(signature)
    }()

    /// Caller `caller`'s share of `calls` spread over `callers`: equal shares, the first ones taking the remainder.
    static func share(of calls: Int, among callers: Int, for caller: Int) -> Int {
        calls / callers + (caller < calls % callers ? 1 : 0)
    }
}
