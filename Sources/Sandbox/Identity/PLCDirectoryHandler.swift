import Foundation
import HTTPTransport

/// The sandbox's PLC directory: `GET /<did>` answers the account's DID document.
struct PLCDirectoryHandler: OriginHandler {
    /// The shared state.
    let core: SandboxCore

    var role: OriginRole { .plcDirectory }

    func handle(_ request: SandboxRequest) async -> SandboxResponse {
        await core.injectedDelay()
        guard request.method == .get || request.method == .head else {
            core.monitor.rejected(request, .notFound, "the PLC directory only answers GET")
            return .json(405, ["message": "method not allowed"])
        }
        let name = String(request.path.dropFirst()).removingPercentEncoding ?? ""
        if name.isEmpty {
            return .json(
                200,
                ["service": "atoauth sandbox PLC directory", "dids": core.configuration.accounts.map(\.did)]
            )
        }
        guard SandboxAccount.isPLCDID(name) else {
            core.monitor.rejected(request, .notFound, "\(name) is not a did:plc DID")
            return .json(404, ["message": "not a did:plc DID: \(name)"])
        }
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
}
