import ATProtoIdentity
import ATProtoSyntax
import Foundation
import HTTPTransport

extension SignInDoctor {
    /// Resolves a handle by DNS and by HTTPS separately, or by the configured resolution service, and says whether
    /// the answers agree (atproto.com/specs/handle, Handle Resolution).
    ///
    /// A handle under a reserved top-level domain, or `handle.invalid`, is not looked up at all, as a sign-in refuses
    /// it first: asking the system resolver for an `.onion` or `.local` name would leak it.
    func examineHandle(_ handle: Handle) async -> (findings: [Finding], did: DID?) {
        do {
            try handle.checkResolvable()
        } catch {
            let unresolvable = Finding.fail(
                "handle-resolution",
                Self.reason(of: error),
                rule: Rule.handleResolution,
                fix: "Such a handle is never resolved: give the account a handle under a public domain, or sign in "
                    + "with its DID.",
                who: .user
            )
            let lookups = IdentityExamination.skipped(["handle-dns", "handle-https"], "the handle cannot be resolved")
            return (lookups + [unresolvable], nil)
        }
        if let service = configuration.identity.handleResolverService {
            return await examineHandle(handle, service: service)
        }
        let resolver = DNSAndHTTPSHandleResolver(dns: configuration.dns, fetcher: fetcher)
        async let dnsAnswer = Self.outcome { try await resolver.resolveWithDNS(handle) }
        async let httpsAnswer = Self.outcome { try await resolver.resolveWithHTTPS(handle) }
        let (dns, https) = await (dnsAnswer, httpsAnswer)
        let dnsDID = (try? dns.get()) ?? nil
        let httpsDID = try? https.get()
        let anyAnswer = dnsDID != nil || httpsDID != nil
        let publish =
            "Publish the DID in a TXT record _atproto.\(handle) with the value did=<DID>, or serve it as the only "
            + "line of https://\(handle)/.well-known/atproto-did."
        var findings: [Finding] = []

        let dnsName = "_atproto.\(handle)"
        switch dns {
        case .success(let did?):
            findings.append(.pass("handle-dns", "\(dnsName) TXT says did=\(did)", rule: Rule.handleResolution))
        case .success(nil) where anyAnswer:
            findings.append(
                .pass(
                    "handle-dns",
                    "\(dnsName) has no TXT record; the HTTPS method answers",
                    rule: Rule.handleResolution
                )
            )
        case .success(nil):
            findings.append(
                .fail(
                    "handle-dns",
                    "\(dnsName) has no TXT record did=…",
                    rule: Rule.handleResolution,
                    fix: publish,
                    who: .user
                )
            )
        case .failure(let error) where anyAnswer && !Self.isConflict(error):
            findings.append(
                .warn(
                    "handle-dns",
                    "the DNS lookup of \(dnsName) failed: \(Self.reason(of: error))",
                    rule: Rule.handleResolution,
                    fix: "The HTTPS method answers, so signing in works; check the domain's DNS servers if the "
                        + "failure persists.",
                    who: .user
                )
            )
        case .failure(let error):
            let fix =
                Self.isConflict(error)
                ? "Keep exactly one _atproto.\(handle) TXT record, did=<the account's DID>, and remove the others."
                : publish
            findings.append(
                .fail("handle-dns", Self.reason(of: error), rule: Rule.handleResolution, fix: fix, who: .user)
            )
        }

        let wellKnown = "https://\(handle)/.well-known/atproto-did"
        switch https {
        case .success(let did):
            findings.append(.pass("handle-https", "\(wellKnown) says \(did)", rule: Rule.handleResolution))
        case .failure(let error) where anyAnswer:
            findings.append(
                .pass(
                    "handle-https",
                    "\(wellKnown) gives no DID (\(Self.reason(of: error))); the DNS method answers",
                    rule: Rule.handleResolution
                )
            )
        case .failure(let error):
            findings.append(
                .fail("handle-https", Self.reason(of: error), rule: Rule.handleResolution, fix: publish, who: .user)
            )
        }

        switch (dnsDID, httpsDID) {
        case (let fromDNS?, let fromHTTPS?) where fromDNS != fromHTTPS:
            findings.append(
                .fail(
                    "handle-resolution",
                    "DNS says \(handle) is \(fromDNS) but HTTPS says \(fromHTTPS)",
                    rule: Rule.handleResolution,
                    fix: "Make the TXT record and the well-known file name the same DID (the account's), or remove "
                        + "the stale one.",
                    who: .user
                )
            )
            return (findings, nil)
        case (let did?, _), (nil, let did?):
            let methods = dnsDID != nil && httpsDID != nil ? "DNS and HTTPS agree" : "one method answers"
            findings.append(.pass("handle-resolution", "\(handle) is \(did) (\(methods))", rule: Rule.handleResolution))
            return (findings, did)
        case (nil, nil):
            findings.append(
                .fail(
                    "handle-resolution",
                    "neither DNS nor HTTPS resolves \(handle)",
                    rule: Rule.handleResolution,
                    fix: publish + " Check the handle's spelling first.",
                    who: .user
                )
            )
            return (findings, nil)
        }
    }

    /// Resolves a handle with a `com.atproto.identity.resolveHandle` service; DNS and HTTPS are skipped.
    private func examineHandle(_ handle: Handle, service: URL) async -> (findings: [Finding], did: DID?) {
        let why = "handles are resolved by \(service.absoluteString) (--handle-resolver), not by DNS and HTTPS"
        var findings = [
            Finding.skip("handle-dns", why, rule: Rule.handleResolution),
            Finding.skip("handle-https", why, rule: Rule.handleResolution),
        ]
        do {
            let did = try await XRPCHandleResolver(service: service, fetcher: fetcher).resolve(handle)
            findings.append(
                .pass(
                    "handle-resolution",
                    "\(service.absoluteString) resolves \(handle) to \(did)",
                    rule: Rule.handleResolution
                )
            )
            return (findings, did)
        } catch {
            findings.append(
                .fail(
                    "handle-resolution",
                    Self.reason(of: error),
                    rule: Rule.handleResolution,
                    fix: Self.loopbackFix(error)
                        ?? ((error as? IdentityError)?.isNetworkFailure == true
                            ? "\(service.absoluteString) (--handle-resolver) could not be reached: check that it is "
                                + "running and reachable; if it is only slow, give a longer --request-timeout SECONDS."
                            : "Check the handle's spelling, and that the resolution service knows it."),
                    who: .user
                )
            )
            return (findings, nil)
        }
    }

    private static func outcome<Value: Sendable>(
        _ body: () async throws -> Value
    ) async -> Result<Value, any Error> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    private static func isConflict(_ error: any Error) -> Bool {
        (error as? IdentityError)?.code == .conflictingHandleRecords
    }
}
