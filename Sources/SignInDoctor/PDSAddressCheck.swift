import Foundation
import HTTPTransport

extension SignInDoctor {
    /// Whether the PDS URL is an https origin on public addresses (an http loopback origin in development mode), as
    /// every fetch requires (atproto.com/specs/oauth, Security Concerns).
    func examinePDSAddress(_ pds: URL?) async -> Finding {
        guard let pds else {
            return .skip("pds-address", "the PDS is not known", rule: Rule.personalDataServer)
        }
        let host = pds.host ?? ""
        do {
            try await fetcher.checkDestination(pds)
        } catch {
            return .fail(
                "pds-address",
                "\(pds.absoluteString): \(Self.reason(of: error))",
                rule: Rule.personalDataServer,
                fix: "A PDS must be reachable at a public https:// address; its operator must publish one in the "
                    + "DID document. (For a PDS on this machine, in development only: --allow-http-loopback.)",
                who: .server
            )
        }
        let addresses: [IPAddress]
        switch HostKind.classify(host) {
        case .address(let address): addresses = [address]
        default: addresses = (try? await configuration.addressResolver.addresses(for: host)) ?? []
        }
        let categories = Set(addresses.map(\.category.description)).sorted().joined(separator: ", ")
        let listed = addresses.prefix(4).map(\.description).joined(separator: ", ")
        let detail = addresses.isEmpty ? "" : ": \(listed) (\(categories))"
        let development = addresses.contains { $0.category == .loopback } ? ", allowed by --allow-http-loopback" : ""
        return .pass("pds-address", "\(pds.absoluteString)\(detail)\(development)", rule: Rule.personalDataServer)
    }
}
