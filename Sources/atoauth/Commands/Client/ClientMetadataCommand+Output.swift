import AccountManager
import ArgumentParser
import Foundation
import OAuthMetadata
import OAuthSessionManager
import WireFormat

extension ClientMetadataCommand {
    /// Replaces `path` with the document, mode 0644.
    static func write(_ data: Data, to path: String) throws {
        do {
            try (data + Data("\n".utf8)).write(to: URL(fileURLWithPath: path), options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        } catch {
            throw CLIFailure(
                status: .failed,
                message: "Cannot write \(TerminalText.sanitized(path, limit: 200)): \(error.localizedDescription)"
            )
        }
    }

    /// Where to serve the document, and what keeps it valid.
    func nextSteps(_ document: ClientMetadataDocument, storeKeys: [ClientKeyStatus]) -> String {
        var lines: [String] = []
        let place = out.map { "Wrote \(TerminalText.sanitized($0, limit: 200)). Serve it" } ?? "Serve the document"
        lines.append(
            "\(place) at \(document.clientID) (status 200, Content-Type application/json, no redirect), then "
                + "check it there: atoauth client check \(document.clientID)"
        )
        if !storeKeys.isEmpty {
            let keys = storeKeys.map { "\($0.record.keyID) (\($0.record.state.rawValue))" }
            lines.append(
                "It publishes the store's \(storeKeys.count == 1 ? "key" : "\(storeKeys.count) keys"): "
                    + keys.joined(separator: ", ") + ". Write and serve it again after `atoauth client keygen` "
                    + "and `atoauth client remove-key`: every key the store holds must stay published."
            )
        }
        if let jwksURI {
            lines.append("Serve the public key set at \(jwksURI), with every key that signs or has signed sessions.")
        }
        return lines.joined(separator: "\n")
    }
}
