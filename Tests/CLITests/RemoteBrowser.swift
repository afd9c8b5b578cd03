import ATOAuthTesting
import DPoPRequestExecutor
import Foundation
import HTTPTransport
import Keystore
import Testing

/// Plays a browser on another machine: it approves the sign-in at the sandbox but cannot reach the loopback redirect,
/// so the user copies the redirect address and pastes it into atoauth.
extension CLIWorld {
    /// Starts `atoauth accounts add handle arguments…` with standard input kept open for pasting.
    func startSignIn(
        _ handle: String,
        _ arguments: [String] = ["--no-browser"],
        extraEnvironment: [String: String] = [:]
    ) throws -> CLIProcess.Running {
        try CLIProcess.start(
            ["accounts", "add", handle] + arguments,
            environment: environment.merging(extraEnvironment) { $1 },
            keepStdinOpen: true
        )
    }

    /// The authorization URL `accounts add` printed, waiting until it is there.
    func authorizationURL(of running: CLIProcess.Running) async throws -> URL {
        let stderr = try await running.waitForStderr(containing: "Waiting for the")
        return try Self.authorizationURL(in: stderr)
    }

    /// The authorization URL in the output of `accounts add`: the line after “Open this URL to sign in:”.
    static func authorizationURL(in output: String) throws -> URL {
        let lines = output.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        let index = try #require(lines.firstIndex { $0.hasSuffix("Open this URL to sign in:") }, "\(output)")
        return try #require(lines.indices.contains(index + 1) ? URL(string: lines[index + 1]) : nil, "\(output)")
    }

    /// Approves at the sandbox without following the redirect, and returns the redirect address the browser would
    /// show on its unreachable page.
    func redirectAddress(approving url: URL) async throws -> URL {
        let response = try await AsyncHTTPClientTransport.withTransport { try await $0.send(HTTPRequest(url: url)) }
        #expect(response.status == 302)
        return try #require(response.headers["Location"].flatMap(URL.init(string:)), "no redirect")
    }

    /// Plays the user of `running` (started with ``startSignIn(_:_:extraEnvironment:)``): waits for the prompt to
    /// paste, approves in the remote browser, pastes the redirect address, and returns what atoauth printed before
    /// the paste, the redirect address, and the result.
    func pasteRedirect(
        into running: CLIProcess.Running
    ) async throws -> (before: String, redirect: URL, result: CLIProcess.Result) {
        let before = try await running.waitForStderr(containing: "paste it here and press Enter")
        let redirect = try await redirectAddress(approving: try Self.authorizationURL(in: before))
        running.write(redirect.absoluteString + "\n")
        return (before, redirect, try await running.finish())
    }

    /// The `code` of a redirect address, to check that it is never printed.
    static func code(in redirect: URL) throws -> String {
        let items = URLComponents(url: redirect, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return try #require(items.first { $0.name == "code" }?.value)
    }
}

extension CLIWorld {
    /// Revokes the refresh token of the session of `did` at the sandbox's revocation endpoint (RFC 7009), as its
    /// client would (its `client_id`, a proof of the session's DPoP key), so the server has ended the session.
    func revokeAtServer(sessionOf did: String) async throws {
        let session = try storedSession(did)
        let store = try EncryptedFileKeystore(directory: home, keySource: .keyFile(keyFile))
        let keyEntry = try #require(try store.load("dpop-key/\(did)"))
        let key = try DPoPKey(persistedRepresentation: keyEntry)
        let token = try #require(session["refreshToken"] as? String)
        let clientID = try #require(session["clientID"] as? String)
        let form =
            "token=\(Self.formEncoded(token))&token_type_hint=refresh_token&client_id=\(Self.formEncoded(clientID))"
        let response = try await AsyncHTTPClientTransport.withTransport { transport in
            try await DPoPRequestExecutor(transport: transport, key: key).send(
                HTTPRequest(
                    method: .post,
                    url: sandbox.authorizationServer.appendingPathComponent("oauth/revoke"),
                    headers: ["Content-Type": "application/x-www-form-urlencoded"],
                    body: Data(form.utf8)
                )
            )
        }
        #expect(response.status == 200)
    }

    /// A form value, percent-encoded.
    static func formEncoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }
}

extension CLIWorld {
    /// Presses Ctrl-C once `running`, an `accounts add`, has stored its pending sign-in and waits for the redirect;
    /// returns how it ended, having checked that it exited 130 and left neither a pending sign-in nor a session.
    func interruptWaitingSignIn(
        _ running: CLIProcess.Running,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> CLIProcess.Result {
        try await Waiting.until("the pending sign-in to be stored") {
            try storedNames().contains { $0.hasPrefix("pending/") }
        }
        try await running.waitForStderr(containing: "press Ctrl-C to cancel")
        running.signal(SIGINT)
        let result = try await running.finish(timeout: .seconds(20))
        #expect(result.status == 130, "\(result.stderr)", sourceLocation: sourceLocation)
        let left = try storedNames().filter { $0.hasPrefix("pending/") || $0.hasPrefix("session/") }
        #expect(left.isEmpty, "\(left)", sourceLocation: sourceLocation)
        return result
    }
}
