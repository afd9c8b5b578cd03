// OAuth metadata documents: a PDS's protected resource metadata (RFC 9728 §3), an authorization server's metadata
// (RFC 8414 §3) and a client's hosted metadata document (atproto.com/specs/oauth, Clients), public or confidential,
// with every check the specification asks for, as fetched for a public PDS and, in development mode, for a loopback
// sandbox; the same bytes as a confidential client's key file (a private JWK or PEM).
//
// Input: the JSON document.

import Foundation
import FuzzSupport
import OAuthMetadata
import WireFormat

@testable import HTTPTransport

/// Where a document was fetched from: a PDS origin, the issuer its metadata must name, and the client's URL.
struct Origin {
    let pds: URL
    let issuer: String
    let clientID: String?
    let allowHTTPLoopback: Bool
}

let origins = [
    Origin(
        pds: URL(string: "https://pds.example.com")!,
        issuer: "https://auth.example.com",
        clientID: "https://atoauth.example.app/client-metadata.json",
        allowHTTPLoopback: false
    ),
    Origin(
        pds: URL(string: "http://127.0.0.1:2583")!,
        issuer: "http://127.0.0.1:2584",
        clientID: nil,
        allowHTTPLoopback: true
    ),
]
let loopbackRedirect = URL(string: "http://127.0.0.1:49152/callback")!

Fuzzer.run { input in
    for origin in origins {
        checkParse {
            try ProtectedResourceMetadata(
                json: input.data,
                pds: origin.pds,
                allowHTTPLoopback: origin.allowHTTPLoopback
            )
        } then: { resource in
            invariant(resource.resource == origin.pds.absoluteString, "the resource is the PDS it was fetched from")
            let issuer = URL(string: resource.authorizationServer)
            invariant(
                issuer.flatMap { try? OriginURL.normalize($0, allowHTTPLoopback: origin.allowHTTPLoopback) } != nil,
                "the authorization server is a usable origin"
            )
        }
        checkParse {
            try AuthorizationServerMetadata(
                json: input.data,
                issuer: origin.issuer,
                allowHTTPLoopback: origin.allowHTTPLoopback
            )
        } then: { server in
            invariant(server.issuer == origin.issuer, "the issuer is the one the metadata was fetched for")
            let policy = DestinationPolicy(allowHTTPLoopback: origin.allowHTTPLoopback)
            let endpoints = [
                server.authorizationEndpoint, server.tokenEndpoint, server.pushedAuthorizationRequestEndpoint,
            ]
            for endpoint in endpoints + (server.revocationEndpoint.map { [$0] } ?? []) {
                invariant((try? policy.checkBeforeResolving(endpoint)) != nil, "\(endpoint) may be contacted")
                invariant(endpoint.fragment == nil, "\(endpoint) has no fragment")
            }
            invariant(server.scopesSupported.contains("atproto"), "the server supports the atproto scope")
            invariant(server.dpopSigningAlgValuesSupported.contains("ES256"), "the server supports ES256 proofs")
        }
        checkParse {
            try ClientMetadata(
                json: input.data,
                expectedClientID: origin.clientID,
                allowHTTPLoopback: origin.allowHTTPLoopback
            )
        } then: { client in
            invariant(origin.clientID.map { $0 == client.clientID } ?? true, "the client is the one fetched")
            invariant(client.scope.split(separator: " ").contains("atproto"), "the client asks for atproto")
            invariant((try? client.validate(allowHTTPLoopback: origin.allowHTTPLoopback)) != nil, "it stays valid")
            _ = client.allowsRedirect(to: loopbackRedirect)
        }
        let problems = ClientMetadataCheck.problems(
            in: input.data,
            fetchedFrom: origin.clientID,
            allowHTTPLoopback: origin.allowHTTPLoopback
        )
        for problem in problems {
            invariant(TerminalText.isSafe(problem.description), "a problem prints safely: \(problem)")
            invariant(!problem.rule.isEmpty, "a problem names its rule")
        }
        if (try? ClientMetadata(
            json: input.data,
            expectedClientID: origin.clientID,
            allowHTTPLoopback: origin.allowHTTPLoopback
        )) != nil {
            invariant(problems.isEmpty, "a document the client accepts has no problem: \(problems)")
        }
    }
    checkParse {
        try ClientKey(contents: input.data)
    } then: { key in
        invariant(!key.keyID.isEmpty, "a key has a kid")
        invariant((try? ClientKey(contents: key.privateJWK))?.keyID == key.keyID, "its JWK reads back as itself")
        invariant(!String(decoding: key.publicJWKS, as: UTF8.self).contains("\"d\""), "the public set has no d")
    }
}
