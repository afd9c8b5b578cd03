public import ATProtoSyntax
import Foundation
public import HTTPTransport

/// Resolves a handle the two standard ways at once: DNS TXT `_atproto.<handle>` and HTTPS
/// `https://<handle>/.well-known/atproto-did` (atproto.com/specs/handle, Handle Resolution).
///
/// Both run concurrently. When both give a DID they must agree, or resolution fails; when one fails, the other's
/// answer is used. Several different DIDs in DNS is an error. The HTTPS answer must be 2xx and its first line,
/// trimmed, a DID; redirects are not followed.
public struct DNSAndHTTPSHandleResolver: HandleResolver {
    private let dns: any DNSTXTResolver
    private let fetcher: SafeFetcher

    /// Creates the resolver from a DNS seam and the safe fetcher used for the HTTPS method.
    public init(dns: any DNSTXTResolver = SystemDNSResolver(), fetcher: SafeFetcher) {
        self.dns = dns
        self.fetcher = fetcher
    }

    /// Resolves by DNS and HTTPS concurrently and reconciles the answers.
    public func resolve(_ handle: Handle) async throws -> DID {
        try handle.checkResolvable()
        async let fromDNS = outcome { try await resolveWithDNS(handle) }
        async let fromHTTPS = outcome { try await resolveWithHTTPS(handle) }
        return try Self.reconcile(handle, dns: await fromDNS, https: await fromHTTPS)
    }

    /// Combines the two answers: agreement wins, disagreement and conflicting DNS records fail, one failure falls
    /// back to the other, and two failures report both.
    static func reconcile(
        _ handle: Handle,
        dns: Result<DID?, IdentityError>,
        https: Result<DID, IdentityError>
    ) throws -> DID {
        if case .failure(let error) = dns, error.code == .conflictingHandleRecords {
            throw error
        }
        switch (dns, https) {
        case (.success(let dnsDID?), .success(let httpsDID)):
            guard dnsDID == httpsDID else {
                throw IdentityError.handleMethodsDisagree(
                    "DNS says \(handle) is \(dnsDID) but https://\(handle)/.well-known/atproto-did says \(httpsDID)"
                )
            }
            return dnsDID
        case (.success(let dnsDID?), .failure):
            return dnsDID
        case (.success(nil), .success(let httpsDID)), (.failure, .success(let httpsDID)):
            return httpsDID
        case (.success(nil), .failure(let httpsError)):
            throw IdentityError.handleResolutionFailed(
                "\(handle) has no _atproto DNS record, and the HTTPS method failed: \(httpsError.reason)"
            )
        case (.failure(let dnsError), .failure(let httpsError)):
            throw IdentityError.handleResolutionFailed(
                "the DNS method failed (\(dnsError.reason)) and the HTTPS method failed (\(httpsError.reason))"
            )
        }
    }

    /// The DID from the `did=` TXT records of `_atproto.<handle>`, `nil` when there is none.
    package func resolveWithDNS(_ handle: Handle) async throws -> DID? {
        let name = "_atproto.\(handle.rawValue)"
        let records = try await dns.txtRecords(for: name)
        let values = Set(records.filter { $0.hasPrefix("did=") }.map { String($0.dropFirst(4)) })
        guard values.count <= 1 else {
            throw IdentityError.conflictingHandleRecords(
                "\(name) has TXT records for different DIDs: \(values.sorted().joined(separator: ", "))"
            )
        }
        guard let value = values.first else { return nil }
        return try Self.resolvedDID(value, for: handle, via: "DNS")
    }

    /// The DID from the first line of `https://<handle>/.well-known/atproto-did`.
    package func resolveWithHTTPS(_ handle: Handle) async throws -> DID {
        guard let url = URL(string: "https://\(handle.rawValue)/.well-known/atproto-did") else {
            throw SyntaxError.unusable(.handle, handle.rawValue, "it cannot form a URL")
        }
        let response = try await fetcher.get(url, expecting: .text)
        let firstLine =
            String(decoding: response.body, as: UTF8.self)
            .split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).first ?? ""
        return try Self.resolvedDID(firstLine.trimmingCharacters(in: .whitespaces), for: handle, via: "HTTPS")
    }

    private func outcome<Value>(_ body: () async throws -> Value) async -> Result<Value, IdentityError> {
        do {
            return .success(try await body())
        } catch let error as IdentityError {
            return .failure(error)
        } catch let error as FetchError {
            return .failure(
                .handleResolutionFailed(error.reason, status: error.status, isNetworkFailure: error.isNetworkFailure)
            )
        } catch let error as SyntaxError {
            return .failure(.handleResolutionFailed(error.reason))
        } catch {
            return .failure(.handleResolutionFailed("\(error)"))
        }
    }
}
