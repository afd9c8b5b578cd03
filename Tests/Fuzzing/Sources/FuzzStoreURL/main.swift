// PostgreSQL store URLs (postgresql.org/docs/current/libpq-connect.html, 34.1.1.2): what `--store` and
// `ATOAUTH_STORE` give, read strictly. A URL is refused with a usage error that never repeats its password, or gives a
// configuration whose port fits, whose parts hold no control character and whose description prints as it is.
//
// Input: the URL text.

import FuzzSupport
import PostgresStore
import WireFormat

Fuzzer.run { input in
    let text = input.text
    let password = URLComponentsPassword.of(text)
    do {
        let configuration = try PostgresStore.Configuration(url: text)
        if case .tcp(_, let port) = configuration.endpoint {
            invariant((1...65535).contains(port), "the port \(port) fits")
        }
        for part in [configuration.username, configuration.database, configuration.password ?? ""] {
            invariant(
                !part.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                "no control character in \(part.debugDescription)"
            )
        }
        invariant(TerminalText.printsAsIs(configuration.description), "the description prints as it is")
        // Checked when the password appears nowhere else in the URL (a database may be named like it).
        if let password, password.count >= 6, text.components(separatedBy: password).count == 2 {
            invariant(!configuration.description.contains(password), "the description never shows the password")
        }
        if configuration.tls != .disable, !text.contains("sslmode") {
            invariant(
                configuration.endpoint.isThisMachine ? configuration.tls == .prefer : configuration.tls == .verifyFull,
                "without sslmode, prefer on this machine and verify-full elsewhere"
            )
        }
    } catch let error as PostgresStoreError {
        invariantPrintable(error)
        invariant(error.category == .usage, "a URL that cannot be read is a usage error")
        // The password may appear in the message only as part of its fixed wording: the message for the same URL
        // with another password holds it too.
        if let password, password.count >= 6, text.components(separatedBy: password).count == 2,
            error.description.contains(password)
        {
            let other = text.replacingOccurrences(of: password, with: "Zq9" + String(repeating: "x", count: 5))
            let otherDescription =
                (try? PostgresStore.Configuration(url: other)).map { _ in "" }
                ?? { () -> String in
                    do { _ = try PostgresStore.Configuration(url: other) } catch { return "\(error)" }
                    return ""
                }()
            invariant(otherDescription.contains(password), "the error never repeats the password")
        }
    } catch {
        invariant(false, "only PostgresStoreError is thrown, not \(type(of: error))")
    }
}
