// DPoP proofs (RFC 9449 §4): the checks a server makes on a proof from the network (RFC 9449 §4.3), as the sandbox
// does, and the round trip of the client's own proofs, whose claims carry what servers and documents sent: the
// nonce (RFC 9449 §8) and the endpoint URL.
//
// Input: a first byte choosing the mode. Even: the rest is a proof to verify. Odd: the rest is lines, the request
// URL, a nonce, an access token and a method, for a proof to sign and verify.

import DPoPRequestExecutor
import Foundation
import FuzzSupport
import HTTPTransport

@testable import Sandbox

let now = Date(timeIntervalSince1970: 1_767_225_600)
let requestURL = URL(string: "https://pds.example.com/xrpc/com.atproto.repo.createRecord")!
let signer = DPoPProofSigner(key: DPoPKey())
let verifier = DPoPProofVerifier()

if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--write-seeds" {
    let directory = URL(fileURLWithPath: CommandLine.arguments[2])
    try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let proofs = [
        ("proof-post", try! signer.proof(method: .post, url: requestURL, issuedAt: now)),
        (
            "proof-nonce",
            try! signer.proof(method: .post, url: requestURL, nonce: "lr9Yr4gDC7pMt4vVrZpZ0Q", issuedAt: now)
        ),
        (
            "proof-token",
            try! signer.proof(method: .post, url: requestURL, nonce: "n", accessToken: "token", issuedAt: now)
        ),
    ]
    for (name, proof) in proofs {
        try! Data([0] + Array(proof.utf8)).write(to: directory.appending(path: name))
    }
    let request = [requestURL.absoluteString, "lr9Yr4gDC7pMt4vVrZpZ0Q", "seed-access-token", "POST"]
    try! Data([1] + Array(request.joined(separator: "\n").utf8)).write(to: directory.appending(path: "sign-post"))
    exit(0)
}

Fuzzer.run { input in
    guard let (mode, rest) = input.modeAndRest else { return }
    if mode % 2 == 0 {
        for accessToken in [nil, "token"] as [String?] {
            do {
                let proof = try verifier.verify(
                    rest.text,
                    method: .post,
                    url: requestURL,
                    accessToken: accessToken,
                    acceptedNonces: nil,
                    now: now
                )
                invariant(proof.htm == "POST", "a verified proof is for the request's method")
                invariant(!proof.thumbprint.isEmpty, "a verified proof names its key")
            } catch {
                invariantPrintable(error)
            }
        }
        return
    }
    let lines = rest.lines
    guard lines.count >= 4, let url = URL(string: lines[0]), let htu = try? DPoPTarget.htu(for: url) else { return }
    let nonce = lines[1].isEmpty ? nil : lines[1]
    let accessToken = lines[2].isEmpty ? nil : lines[2]
    let method = HTTPMethod(rawValue: lines[3])
    let proof: String
    do {
        proof = try signer.proof(method: method, htu: htu, nonce: nonce, accessToken: accessToken, issuedAt: now)
    } catch {
        invariantPrintable(error)
        return
    }
    do {
        let verified = try verifier.verify(
            proof,
            method: method,
            url: url,
            accessToken: accessToken,
            acceptedNonces: nonce.map { [$0] },
            now: now
        )
        invariant(verified.htu == htu && verified.nonce == nonce, "the claims read back as written")
        invariant(verified.thumbprint == signer.key.thumbprint, "the proof carries the signer's key")
    } catch {
        invariant(false, "a proof the signer makes is accepted: \(error)")
    }
}
