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
///
/// The store is opened once per command (its passphrase asked at most once, on a terminal), before the checks
/// start, and only when the diagnosis may need it: a store that exists, and a target that names an account or none.
struct DoctorLocalSide: Sendable {
    /// The store as opened for this command.
    enum Reading: Sendable {
        /// No store to read: none exists yet, or the target is a server.
        case none
        /// The store, and an account manager that only reads it: no nonce file, nothing sent but the live check.
        case open(AccountManager)
        /// The store exists but could not be opened (a wrong passphrase, a database down).
        case unreadable(any Error)
    }

    let settings: GlobalSettings
    let environment: [String: String]
    let home: URL
    let reading: Reading

    /// Whether there is a store to read: a database, or a file store already made under the home.
    static func storeExists(_ settings: GlobalSettings, home: URL) -> Bool {
        settings.store != nil || UncreatedFileStore.exists(in: home)
    }

    /// Opens the store once when `opening` and it exists (asking for its passphrase on a terminal, as every command
    /// does), runs `body` with what was read, and closes the store on every path.
    static func withStore<T>(
        settings: GlobalSettings,
        environment: [String: String],
        home: URL,
        logger: Logger,
        transport: any HTTPTransport,
        opening: Bool,
        _ body: (DoctorLocalSide) async throws -> T
    ) async throws -> T {
        func side(_ reading: Reading) -> DoctorLocalSide {
            DoctorLocalSide(settings: settings, environment: environment, home: home, reading: reading)
        }
        guard opening, storeExists(settings, home: home) else { return try await body(side(.none)) }
        var opened = false
        do {
            return try await StoreSelection.withKeystore(
                settings,
                home: home,
                environment: environment,
                logger: logger
            ) { keystore in
                opened = true
                let configuration = try CLIContext.accountConfiguration(settings, logger: logger)
                let accounts = AccountManager(keystore: keystore, transport: transport, configuration: configuration)
                return try await body(side(.open(accounts)))
            }
        } catch  where !opened && !(error is CancellationError) {
            return try await body(side(.unreadable(error)))
        }
    }

    /// The account to diagnose when none is named: `--account`, else the active one.
    func defaultTarget() async throws -> String {
        // The doctor reports and signs nothing in: a store it cannot read, or no such account, is a usage error
        // here (name what to diagnose), never "sign in again" (exit 3).
        func usage(_ error: any Error) -> CLIFailure {
            CLIFailure(
                status: .usage,
                message: CLIFailure(error).message + " Or name a handle, a DID or a server's https:// URL to diagnose."
            )
        }
        switch reading {
        case .none:
            throw CLIFailure(
                status: .usage,
                message: "No account is signed in here: name a handle, a DID or a server's https:// URL to diagnose, "
                    + "for example `atoauth doctor alice.bsky.social`."
            )
        case .unreadable(let error):
            throw usage(error)
        case .open(let accounts):
            do {
                let account = try await accounts.account(try settings.selectedAccount())
                return account.handle?.description ?? account.did.rawValue
            } catch {
                throw usage(error)
            }
        }
    }

    /// The local state of `identifier` when it is signed in here, `nil` when it is not; with the PDS's answer to
    /// the stored access token when it can be asked without a refresh.
    func account(_ identifier: ATIdentifier) async throws -> LocalAccount? {
        let accounts: AccountManager
        switch reading {
        case .none: return nil
        case .unreadable(let error): throw error
        case .open(let opened): accounts = opened
        }
        let account: Account
        do {
            account = try await accounts.account(identifier)
        } catch let error as AccountError where [.noSuchAccount, .sessionEnded].contains(error.code) {
            // Not signed in here, or its session ended (a forced key removal).
            return nil
        } catch  where error is KeystoreError || error is SessionError {
            throw DamagedSession(account: identifier.description, reason: "\(error)")
        }
        let interruption = try await accounts.sessions.unsettledRefresh(of: account.did)
        let connection = try await accounts.restore(.did(account.did))
        let session = connection.session
        let keystore = accounts.keystore
        let unsettled: LocalAccount.UnsettledRefresh? =
            switch interruption {
            case .cutOff: .cutOff
            case .unanswered: .unanswered
            case nil: nil
            }
        let failure = await RefreshFailureRecord.load(session.did, from: keystore)
        var local = LocalAccount(session: session, unsettledRefresh: unsettled, store: store)
        local.lastRefreshFailure = failure.map { ($0.at, $0.reason) }
        if local.canAskPDS(at: Date()) {
            local.sessionAnswer = await SessionCheck.asStored(connection)
        }
        return local
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
}

/// The account's session is stored here but cannot be read.
private struct DamagedSession: Error, CustomStringConvertible {
    /// The account as named: its handle or DID.
    let account: String
    /// Why, as the store says it; never a token or a key.
    let reason: String

    var description: String { "the stored session of \(account) cannot be read (\(reason))" }
}
