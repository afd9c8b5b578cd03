import ATProtoIdentity
import ATProtoSyntax
import Foundation

/// What the identity half of the chain found: the findings, and what the next checks start from.
struct IdentityExamination: Sendable {
    var findings: [Finding] = []
    /// The account's DID, when the target named or resolved to one.
    var did: DID?
    /// The handle checked: the one typed, or the one the DID document names.
    var handle: Handle?
    /// The PDS to examine, when it is known and usable.
    var pds: URL?
    /// The PDS the DID document names, usable or not; `nil` for a server URL.
    var documentedPDS: URL?

    /// The account to look for here: the DID, else the handle typed.
    var account: ATIdentifier? {
        if let did { return .did(did) }
        return handle.map { .handle($0) }
    }

    /// The `login_hint` a sign-in would send.
    var loginHint: String? { handle?.description ?? did?.rawValue }

    /// The checks of the handle.
    static let handleChecks = ["handle-dns", "handle-https", "handle-resolution"]
    /// The checks of the DID document.
    static let documentChecks = ["did-document", "did-handle", "did-pds"]

    /// Every check of the identity half, in order, with its rule.
    static var checks: [(name: String, rule: String)] {
        (handleChecks + documentChecks + ["pds-address"]).map { (name: $0, rule: rule(of: $0)) }
    }

    /// The named checks, skipped for the same reason.
    static func skipped(_ checks: [String], _ why: String) -> [Finding] {
        checks.map { Finding.skip($0, why, rule: rule(of: $0)) }
    }

    /// The rule a check of the identity half follows.
    private static func rule(of check: String) -> String {
        switch check {
        case "did-document": Rule.didDocument
        case "did-handle": Rule.handleBothWays
        case "did-pds", "pds-address": Rule.personalDataServer
        default: Rule.handleResolution
        }
    }
}

extension SignInDoctor {
    /// Resolves the target as a sign-in does, checking each step on its own.
    func examineIdentity(_ target: DoctorTarget) async -> IdentityExamination {
        var result = IdentityExamination()
        switch target {
        case .server(let url):
            result.findings = IdentityExamination.skipped(
                IdentityExamination.handleChecks + IdentityExamination.documentChecks,
                "a server URL was given, so there is no account to resolve"
            )
            result.pds = url
        case .handle(let handle):
            result.handle = handle
            let (findings, did) = await examineHandle(handle)
            result.findings += findings
            guard let did else {
                result.findings += IdentityExamination.skipped(
                    IdentityExamination.documentChecks,
                    "the handle did not resolve to a DID"
                )
                break
            }
            result.did = did
            guard let document = await examineDocument(did, into: &result) else {
                result.findings += IdentityExamination.skipped(
                    ["did-handle", "did-pds"],
                    "the DID document could not be read"
                )
                break
            }
            result.findings.append(Self.documentNamesHandle(document, handle: handle, did: did))
            examinePDS(of: document, into: &result)
        case .did(let did):
            result.did = did
            guard let document = await examineDocument(did, into: &result) else {
                result.findings += IdentityExamination.skipped(
                    IdentityExamination.handleChecks + ["did-handle", "did-pds"],
                    "the DID document could not be read"
                )
                break
            }
            if let handle = document.handle {
                let (findings, resolved) = await examineHandle(handle)
                // As a sign-in, the probe names the handle (its `login_hint`) only once it points back to the DID.
                if resolved == did { result.handle = handle }
                result.findings += findings
                result.findings.append(Self.handlePointsBack(handle, resolved: resolved, did: did))
            } else {
                result.findings += IdentityExamination.skipped(
                    IdentityExamination.handleChecks,
                    "the DID document names no handle"
                )
                result.findings.append(
                    .pass(
                        "did-handle",
                        "\(did)'s document names no handle; the account signs in by its DID",
                        rule: Rule.handleBothWays
                    )
                )
            }
            examinePDS(of: document, into: &result)
        }
        await result.findings.append(examinePDSAddress(result.pds ?? result.documentedPDS))
        return result
    }

    /// Fetches the DID document and checks its `id`; `nil` when it cannot be used.
    private func examineDocument(_ did: DID, into result: inout IdentityExamination) async -> DIDDocument? {
        let resolver = DIDResolver(fetcher: fetcher, plcDirectory: configuration.identity.plcDirectory)
        do {
            let document = try await resolver.resolve(did)
            let source = (try? resolver.documentURL(for: did).absoluteString) ?? did.rawValue
            result.findings.append(.pass("did-document", "\(source) describes \(did)", rule: Rule.didDocument))
            return document
        } catch {
            // A document whose `id` is not the DID asked for describes someone else (atproto.com/specs/did).
            let notThisDID = (error as? IdentityError)?.field == "id"
            let directory = configuration.identity.plcDirectory.absoluteString
            let fix =
                if let loopback = Self.loopbackFix(error) {
                    loopback
                } else if error is SyntaxError {
                    "atoauth resolves did:plc and did:web, the DID methods AT Protocol supports "
                        + "(atproto.com/specs/did): check the DID, or give the account's handle."
                } else if (error as? IdentityError)?.isNetworkFailure == true {
                    "Nothing answered for the DID document: check the network"
                        + (did.rawValue.hasPrefix("did:plc:") ? " and the PLC directory (--plc-directory)" : "")
                        + ", then try again."
                } else if did.rawValue.hasPrefix("did:web:") {
                    "Serve the account's DID document, with “id” \(did), at https://<host>/.well-known/did.json."
                } else if notThisDID {
                    "\(directory) did not answer with a DID document for \(did): check that it is a PLC directory "
                        + "(--plc-directory; the default is \(DIDResolver.defaultPLCDirectory.absoluteString)), and "
                        + "if it is, report its answer to its operator."
                } else {
                    "The PLC directory must hold a current document for \(did); if the DID is new or was just "
                        + "changed, ask the PDS's operator to publish it."
                }
            result.findings.append(
                .fail("did-document", Self.reason(of: error), rule: Rule.didDocument, fix: fix, who: .user)
            )
            return nil
        }
    }

    /// The document's `#atproto_pds` service: present, of the right type, an https origin.
    private func examinePDS(of document: DIDDocument, into result: inout IdentityExamination) {
        if let service = document.services.first(where: { $0.id.hasSuffix(DIDDocument.pdsServiceID) }),
            let endpoint = service.endpoint
        {
            result.documentedPDS = URL(string: endpoint)
        }
        do {
            let pds = try document.personalDataServer(allowHTTPLoopback: allowHTTPLoopback)
            result.pds = pds
            result.findings.append(
                .pass("did-pds", "the #atproto_pds service is \(pds.absoluteString)", rule: Rule.personalDataServer)
            )
        } catch {
            result.findings.append(
                .fail(
                    "did-pds",
                    Self.reason(of: error),
                    rule: Rule.personalDataServer,
                    fix: "The DID document needs a #atproto_pds service of type AtprotoPersonalDataServer whose "
                        + "serviceEndpoint is the PDS's https:// origin; the PDS's operator (or, for did:web, the "
                        + "account's owner) must correct it.",
                    who: .server
                )
            )
        }
    }

    /// Whether the document typed by handle names that handle first in `alsoKnownAs`.
    static func documentNamesHandle(_ document: DIDDocument, handle: Handle, did: DID) -> Finding {
        if document.handle == handle {
            return .pass("did-handle", "\(did)'s document names at://\(handle)", rule: Rule.handleBothWays)
        }
        let named = document.handle.map { "names at://\($0) instead" } ?? "names no handle"
        return .fail(
            "did-handle",
            "\(handle) resolves to \(did), but that DID's document \(named)",
            rule: Rule.handleBothWays,
            fix: "The account's DID document must list at://\(handle) in alsoKnownAs. If the handle was just "
                + "changed, set it again from the account's PDS (com.atproto.identity.updateHandle); until then, if "
                + "the handle the document names resolves back to \(did), sign in with it (or with the DID).",
            who: .user
        )
    }

    /// Whether the handle a DID document names resolves back to the DID.
    static func handlePointsBack(_ handle: Handle, resolved: DID?, did: DID) -> Finding {
        if resolved == did {
            return .pass(
                "did-handle",
                "\(did)'s document names \(handle), which resolves back to it",
                rule: Rule.handleBothWays
            )
        }
        let seen =
            resolved.map { "\(did)'s document names \(handle), but \(handle) resolves to \($0)" }
            ?? "\(did)'s document names \(handle), which does not resolve"
        return .fail(
            "did-handle",
            seen,
            rule: Rule.handleBothWays,
            fix: "The handle must resolve to \(did) by DNS (_atproto.\(handle) TXT did=\(did)) or HTTPS "
                + "(https://\(handle)/.well-known/atproto-did); the handle's owner must publish it, or set another "
                + "handle.",
            who: .user
        )
    }

}
