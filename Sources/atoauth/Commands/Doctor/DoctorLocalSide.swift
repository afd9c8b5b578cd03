import ATProtoSyntax
import AccountManager
import Foundation
import HTTPTransport
import Keystore
import Logging
import OAuthSessionManager
import SignInDoctor
import WireFormat

/// What `atoauth doctor` reads of this machine's store, without creating, refreshing or changing anything.
struct DoctorLocalSide {
    let settings: GlobalSettings
    let environment: [String: String]
    let home: URL
    let logger: Logger
    let transport: any HTTPTransport

    /// Whether there is a store to read: a database, or a file store already made under the home.
    private var storeExists: Bool {
        settings.store != nil
            || FileManager.default.fileExists(atPath: home.appendingPathComponent("keystore.json").path)
    }

    /// The account to diagnose when none is named: `--account`, else the active one.
    func defaultTarget() async throws -> String {
        let none = CLIFailure(
            status: CLIFailure.usage,
            message: "No account is signed in here: name a handle, a DID or a server's https:// URL to diagnose, "
                + "for example `atoauth doctor alice.bsky.social`."
        )
        guard storeExists else { throw none }
        do {
            let account = try await withAccounts { accounts, _ in
                try await accounts.account(try AccountName.identifier(settings.account))
            }
            return account.handle?.description ?? account.did.rawValue
        } catch {
            // The doctor reports and signs nothing in: a store it cannot read, or no such account, is a usage error
            // here (name what to diagnose), never "sign in again" (exit 3).
            throw CLIFailure(
                status: CLIFailure.usage,
                message: CLIFailure(error).message + " Or name a handle, a DID or a server's https:// URL to diagnose."
            )
        }
    }

    /// The local state of `identifier` when it is signed in here, `nil` when it is not.
    func account(_ identifier: ATIdentifier) async throws -> LocalAccount? {
        guard storeExists else { return nil }
        return try await withAccounts { accounts, keystore in
            let account: Account
            do {
                account = try await accounts.account(identifier)
            } catch let error as AccountError
                where error.hasSameCode(as: .noSuchAccount(""))
                || error.hasSameCode(as: .sessionEnded("", requestedScope: nil, reason: ""))
            {
                // An account whose session ended (a forced key removal) is no longer signed in here.
                return nil
            }
            let session = try await accounts.restore(.did(account.did)).session
            var unsettled: LocalAccount.UnsettledRefresh?
            if let refreshToken = session.refreshToken {
                switch await RefreshJournal(keystore: keystore).interruption(session.did, refreshToken: refreshToken) {
                case .cutOff: unsettled = .cutOff
                case .unanswered: unsettled = .unanswered
                case nil: unsettled = nil
                }
            }
            let failure = await RefreshFailureRecord.load(session.did, from: keystore)
            return LocalAccount(
                session: session,
                unsettledRefresh: unsettled,
                store: store,
                lastRefreshFailure: failure.map { ($0.at, $0.reason) }
            )
        }
    }

    private var store: LocalAccount.Store {
        guard let url = settings.store else {
            let usesPassphrase = environment[StoreEnvironment.passphraseVariable].nonEmpty != nil
            let keyFile = usesPassphrase ? nil : try? StoreEnvironment.defaultKeyFile(environment: environment)
            return .files(
                home: home,
                keyFile: keyFile.flatMap { FileManager.default.fileExists(atPath: $0.path) ? $0 : nil }
            )
        }
        // Only the host and the database name: never the user or the password.
        let components = URLComponents(string: url)
        let host = components?.host ?? "?"
        let database = components?.path.split(separator: "/").first.map(String.init) ?? ""
        return .database(description: TerminalText.sanitized("\(host)/\(database)", limit: 200), home: home)
    }

    /// Opens the store (asking for its passphrase on a terminal, as every command does) and an account manager that
    /// only reads it: no nonce file, nothing sent.
    private func withAccounts<T>(
        _ body: (AccountManager, any Keystore) async throws -> T
    ) async throws -> T {
        try await StoreSelection.withKeystore(
            url: settings.store,
            fromCommandLine: settings.storeFromCommandLine,
            home: home,
            environment: environment,
            logger: logger,
            asking: settings.mayAsk
        ) { keystore in
            let configuration = try CLIContext.accountConfiguration(settings, logger: logger)
            let accounts = AccountManager(keystore: keystore, transport: transport, configuration: configuration)
            return try await body(accounts, keystore)
        }
    }
}
