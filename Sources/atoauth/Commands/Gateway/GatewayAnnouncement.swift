import Foundation
import Gateway

extension GatewayCommand {
    /// What the gateway prints on stdout once it listens.
    ///
    /// That is `listening on <address>`; with `--json` one object, `{"listening": …, "tokenFile": …}`; with
    /// `--print-env` lines a shell can `eval` (or a program split at the first `=`), and nothing else:
    ///
    /// ```
    /// ATOAUTH_GATEWAY_URL=http://127.0.0.1:8787
    /// ATOAUTH_GATEWAY_TOKEN_FILE=/home/alice/.local/share/atoauth/gateway-token
    /// ```
    ///
    /// On a Unix socket, the URL is `http://localhost` and `ATOAUTH_GATEWAY_SOCKET=<path>` follows.
    struct Announcement {
        var json: Bool
        var printEnv: Bool

        /// Prints where the gateway listens and where its token is.
        func listening(at address: GatewayConfiguration.Listen, tokenFile: URL) throws {
            if printEnv {
                for (name, value) in Self.environment(address, tokenFile: tokenFile) {
                    Output.line("\(name)=\(ShellWords.quoted(value, unquoted: "/._-:+,@%"))")
                }
            } else if json {
                try Output.json(["listening": address.description, "tokenFile": tokenFile.path])
            } else {
                Output.line("listening on \(address)")
            }
        }

        /// The variables `--print-env` prints, in order.
        static func environment(_ address: GatewayConfiguration.Listen, tokenFile: URL) -> [(String, String)] {
            switch address {
            case .tcp:
                return [("ATOAUTH_GATEWAY_URL", address.description), ("ATOAUTH_GATEWAY_TOKEN_FILE", tokenFile.path)]
            case .unixSocket(let path):
                return [
                    ("ATOAUTH_GATEWAY_URL", "http://localhost"), ("ATOAUTH_GATEWAY_TOKEN_FILE", tokenFile.path),
                    ("ATOAUTH_GATEWAY_SOCKET", path),
                ]
            }
        }
    }
}
