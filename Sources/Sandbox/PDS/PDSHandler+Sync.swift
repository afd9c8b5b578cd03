import Foundation

extension PDSHandler {
    /// `com.atproto.sync.getBlob`: the bytes of a blob a hosted account uploaded, as uploaded, with its media type.
    ///
    /// Parameters `did` and `cid` (atproto.com/specs/xrpc; the lexicon's errors `RepoNotFound` and `BlobNotFound`,
    /// both `400`). The headers are the reference PDS's: `Content-Type`, `Content-Length`, and
    /// `X-Content-Type-Options: nosniff` with a `Content-Security-Policy` that keeps a browser from running the blob.
    func getBlob(_ request: SandboxRequest) async throws(SandboxRejection) -> SandboxResponse {
        guard let parameters = try? request.queryParameters() else {
            throw invalid("the query string is malformed")
        }
        guard let did = parameters["did"], let cid = parameters["cid"], !did.isEmpty, !cid.isEmpty else {
            throw invalid("did and cid are required")
        }
        guard did.hasPrefix("did:") else {
            throw invalid("did must be a DID")
        }
        guard let account = core.configuration.account(for: did) else {
            throw reject(.invalidXRPCInput, 400, "RepoNotFound", "Could not find repo for DID: \(did)")
        }
        guard let blob = await core.repositories.blob(did: account.did, cid: cid) else {
            throw reject(.notFound, 400, "BlobNotFound", "Blob not found: \(cid)")
        }
        core.monitor.count { $0.blobsServed += 1 }
        return SandboxResponse(
            status: 200,
            headers: [
                ("Content-Type", blob.mimeType),
                ("Content-Length", String(blob.size)),
                ("X-Content-Type-Options", "nosniff"),
                ("Content-Security-Policy", "default-src 'none'; sandbox"),
            ],
            body: blob.bytes
        )
    }
}
