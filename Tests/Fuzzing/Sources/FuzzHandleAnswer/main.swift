// The three answers a handle resolves from (atproto.com/specs/handle, Handle Resolution): a raw DNS message with
// the TXT records of `_atproto.<handle>`, the body of `https://<handle>/.well-known/atproto-did`, and a
// `com.atproto.identity.resolveHandle` answer, each read by the real resolver behind the real fetcher checks.
//
// Input: a first byte choosing the answer (its value modulo 3: DNS, HTTPS, XRPC), then the DNS message or the body.

import ATProtoSyntax
import Foundation
import FuzzSupport
import HTTPTransport

@testable import ATProtoIdentity

let handle = try! Handle(validating: "alice.example.com")

/// A DNS that answers every TXT query with the records of the fuzzed message.
struct RecordsDNS: DNSTXTResolver {
    let records: [String]

    func txtRecords(for name: String) async throws -> [String] { records }
}

/// Checks a resolved DID (found in `answer` as written, when the answer is not JSON) or a failed resolution's error.
func checkOutcome(_ outcome: Result<DID, any Error>, answer: String?) {
    switch outcome {
    case .success(let did):
        invariant((try? did.resolutionTarget()) != nil, "a resolved DID is one this client resolves")
        invariant(answer?.contains(did.rawValue) ?? true, "a resolved DID comes from the answer")
    case .failure(let error):
        invariantPrintable(error)
    }
}

Fuzzer.run { input in
    guard let (mode, rest) = input.modeAndRest else { return }
    switch mode % 3 {
    case 0:
        guard let records = try? DNSTXTAnswer.records(in: rest.bytes) else { return }
        let resolver = DNSAndHTTPSHandleResolver(
            dns: RecordsDNS(records: records),
            fetcher: .serving(.init(status: 404))
        )
        let outcome = runBlocking { () -> Result<DID?, any Error> in
            do { return .success(try await resolver.resolveWithDNS(handle)) } catch { return .failure(error) }
        }
        switch outcome {
        case .success(let did?): checkOutcome(.success(did), answer: records.joined(separator: "\n"))
        case .success(nil): invariant(!records.contains { $0.hasPrefix("did=") }, "no DID only without did= records")
        case .failure(let error): invariantPrintable(error)
        }
    case 1:
        let resolver = DNSAndHTTPSHandleResolver(
            dns: RecordsDNS(records: []),
            fetcher: .serving(.init(status: 200, headers: ["Content-Type": "text/plain"], body: rest.data))
        )
        let outcome = runBlocking { () -> Result<DID, any Error> in
            do { return .success(try await resolver.resolveWithHTTPS(handle)) } catch { return .failure(error) }
        }
        checkOutcome(outcome, answer: rest.text)
    default:
        let resolver = XRPCHandleResolver(
            service: URL(string: "https://resolver.example.com")!,
            fetcher: .serving(.init(status: 200, headers: ["Content-Type": "application/json"], body: rest.data))
        )
        let outcome = runBlocking { () -> Result<DID, any Error> in
            do { return .success(try await resolver.resolve(handle)) } catch { return .failure(error) }
        }
        checkOutcome(outcome, answer: nil)
    }
}
