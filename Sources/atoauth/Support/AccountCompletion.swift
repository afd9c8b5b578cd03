import AccountManager
import ArgumentParser
import Foundation

/// Shell completion of account names.
///
/// It offers the handles (or DIDs) signed in here, read from the store the command line (`--home`, `--store`) or the
/// environment selects. Nothing is sent; a store that cannot be opened completes nothing.
enum AccountCompletion {
    /// For an argument or option that names a signed-in account.
    static let signedIn = CompletionKind.custom { words, _, prefix in
        await names(commandLine: words).filter { $0.lowercased().hasPrefix(prefix.lowercased()) }
    }

    /// The signed-in accounts' names, the active one first.
    static func names(commandLine words: [String]) async -> [String] {
        let environment = ProcessInfo.processInfo.environment
        var settings = GlobalSettings(
            home: value(of: "--home", in: words),
            store: value(of: "--store", in: words),
            environment: environment
        )
        // Completing never asks for anything (the shell waits) and never creates a store.
        settings.mayAsk = false
        if settings.store == nil {
            guard let home = try? CLIContext.homeDirectory(settings, environment),
                UncreatedFileStore.exists(in: home)
            else { return [] }
        }
        let accounts = try? await CLIContext.run(settings) { try await $0.accounts.accounts() }
        return (accounts ?? []).sorted { $0.active && !$1.active }.map(\.displayName)
    }

    /// The value of option `name` among the words typed so far, in either form (`--home DIR`, `--home=DIR`).
    static func value(of name: String, in words: [String]) -> String? {
        for (index, word) in words.enumerated() {
            if word == name, index + 1 < words.count { return words[index + 1] }
            if word.hasPrefix(name + "=") { return String(word.dropFirst(name.count + 1)) }
        }
        return nil
    }
}
