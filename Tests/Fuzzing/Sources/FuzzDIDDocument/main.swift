// DID documents as a PLC directory or a did:web host serves them (atproto.com/specs/did): decoding, the `id`
// check, the handle from `alsoKnownAs`, and the PDS endpoint, strict and in development mode.
//
// Input: the JSON document.

import ATProtoIdentity
import ATProtoSyntax
import Foundation
import FuzzSupport

@testable import HTTPTransport

let did = try! DID(validating: "did:plc:ewvi7nxzyoun6zhxrhs64oiz")

Fuzzer.run { input in
    var decoded: DIDDocument?
    checkParse {
        try DIDDocument(json: input.data)
    } then: {
        decoded = $0
    }
    guard let document = decoded else { return }
    checkParse {
        try document.check(for: did)
    } then: {
        invariant(document.id == did.rawValue, "only the document whose id is the DID passes the check")
    }
    if let handle = document.handle {
        invariant(Handle.isValid(handle.rawValue), "the document's handle is a valid handle")
        invariant(
            document.alsoKnownAs.contains { $0.lowercased() == "at://\(handle.rawValue)" },
            "the handle comes from an at:// entry of alsoKnownAs"
        )
    }
    for allowHTTPLoopback in [false, true] {
        checkParse {
            try document.personalDataServer(allowHTTPLoopback: allowHTTPLoopback)
        } then: { pds in
            invariant(
                OriginURL.isNormalized(pds.absoluteString, allowHTTPLoopback: allowHTTPLoopback),
                "the PDS \(pds) is a normalized origin"
            )
            invariant(allowHTTPLoopback || pds.scheme == "https", "outside development mode the PDS is https")
        }
    }
}
