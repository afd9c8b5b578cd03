import Foundation
import HTTPTransport
import Hummingbird

/// The sandbox's PLC directory: `GET /<did>` answers the account's DID document.
struct PLCDirectoryHandler: OriginHandler {
    /// The shared state.
    let core: SandboxCore

    var role: OriginRole { .plcDirectory }

    func addRoutes(to router: Router<SandboxContext>) {
        router.add(middleware: CheckMiddleware { _ in await core.injectedDelay() })
        router.get("/") { _ in directory() }.on("/", method: .head) { _ in directory() }
        router.get("/:did") { request in didDocument(request) }.on("/:did", method: .head) { request in
            didDocument(request)
        }
        router.answerUnrouted { request, _ in
            guard request.method == .get || request.method == .head else {
                core.monitor.rejected(request, .notFound, "the PLC directory only answers GET")
                var response = SandboxResponse.json(405, ["message": "method not allowed"])
                response.headers.append(("Allow", "GET, HEAD"))  // RFC 9110 §15.5.6
                return response
            }
            return notADID(request, String(request.path.dropFirst()).removingPercentEncoding ?? "")
        }
    }

    /// `GET /`: what the directory serves.
    private func directory() -> SandboxResponse {
        .json(200, ["service": "atoauth sandbox PLC directory", "dids": core.configuration.accounts.map(\.did)])
    }

    /// `GET /<did>`: the DID document of a hosted account.
    private func didDocument(_ request: SandboxRequest) -> SandboxResponse {
        let name = String(request.path.dropFirst()).removingPercentEncoding ?? ""
        guard SandboxAccount.isPLCDID(name) else { return notADID(request, name) }
        guard let account = core.configuration.account(for: name) else {
            core.monitor.rejected(request, .notFound, "no account has the DID \(name)")
            return .json(404, ["message": "DID not registered: \(name)"])
        }
        return .json(
            200,
            DIDDocument.json(
                for: account,
                pdsOrigin: core.origin(.pds),
                namesOtherHandle: core.configuration.faults.didDocumentNamesOtherHandle
            ),
            contentType: "application/did+ld+json; charset=utf-8"
        )
    }

    private func notADID(_ request: SandboxRequest, _ name: String) -> SandboxResponse {
        core.monitor.rejected(request, .notFound, "\(name) is not a did:plc DID")
        return .json(404, ["message": "not a did:plc DID: \(name)"])
    }
}
