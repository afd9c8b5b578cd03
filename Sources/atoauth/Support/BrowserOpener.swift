import Foundation

/// Opens a URL in the user's browser: `$BROWSER <url>` when set, else the platform opener.
enum BrowserOpener {
    /// Starts the opener and returns without waiting for the browser; a failure to start is reported, not thrown,
    /// because the URL is always printed too.
    static func open(_ url: URL, environment: [String: String]) {
        let process = Process()
        if let browser = environment["BROWSER"], !browser.isEmpty {
            // $BROWSER may carry arguments; the shell splits it, and the URL is passed as a separate argument.
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "\(browser) \"$1\"", "atoauth-browser", url.absoluteString]
        } else {
            #if os(macOS)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/open")
            #else
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            #endif
            process.arguments =
                (process.executableURL?.path == "/usr/bin/env" ? ["xdg-open"] : []) + [url.absoluteString]
        }
        process.environment = withoutSecrets(ProcessInfo.processInfo.environment)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            Output.message("Could not open a browser (\(error.localizedDescription)); open the URL above yourself.")
        }
    }

    /// The `ATOAUTH_*` variables that hold secrets, which the browser never needs.
    static let secretVariables: Set<String> = [
        "ATOAUTH_PASSPHRASE", "ATOAUTH_APP_PASSWORD", "ATOAUTH_AUTH_FACTOR", "ATOAUTH_KEY_FILE", "ATOAUTH_STORE",
    ]

    /// Returns `environment` without the variables in ``secretVariables``, any other `ATOAUTH_*` variable whose
    /// name says it holds a secret (a password, passphrase, token, key or factor), and `PGPASSWORD`.
    static func withoutSecrets(_ environment: [String: String]) -> [String: String] {
        let secretWords = ["PASSWORD", "PASSPHRASE", "SECRET", "TOKEN", "KEY", "FACTOR"]
        return environment.filter { name, _ in
            let upper = name.uppercased()
            guard upper.hasPrefix("ATOAUTH_") else { return upper != "PGPASSWORD" }
            return !secretVariables.contains(upper) && !secretWords.contains { upper.contains($0) }
        }
    }
}
