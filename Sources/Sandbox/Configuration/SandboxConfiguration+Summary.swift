import Foundation

extension SandboxConfiguration {
    /// The configuration of `atoauth sandbox`: its test accounts (by default ``SandboxAccount/defaults``), those
    /// whose app-password sign-in asks for a new random code, its ports, and the settings changed from their defaults.
    ///
    /// - Throws: a refusal naming a two-factor handle that is not a test account.
    public init(
        testAccounts: [String],
        twoFactor: [String],
        ports: Ports,
        settings: SandboxSettingsChange
    ) throws(SandboxSettingsChange.Refusal) {
        var accounts =
            testAccounts.isEmpty
            ? SandboxAccount.defaults : testAccounts.map { SandboxAccount(handle: $0.lowercased()) }
        for handle in twoFactor.map({ $0.lowercased() }) {
            guard let index = accounts.firstIndex(where: { $0.handle == handle }) else {
                let handles = accounts.map(\.handle).joined(separator: ", ")
                throw .init(setting: nil, message: "\(handle) is not one of the test accounts (\(handles))")
            }
            accounts[index].authFactorToken = SandboxAccount.randomAuthFactorToken()
        }
        self.init(accounts: accounts, ports: ports)
        _ = settings.apply(to: &self)
    }

    /// The faults that are on, by key in key order, each with its value as `POST /_sandbox/settings` takes it.
    public var activeFaults: [(key: String, value: SandboxSetting.Value)] {
        let defaults = SandboxConfiguration(accounts: [])
        return SandboxSetting.all.filter { $0.isFault && $0.value(in: self) != $0.value(in: defaults) }
            .map { (key: $0.key, value: $0.value(in: self)) }
            .sorted { $0.key < $1.key }
    }

    /// What `atoauth sandbox` prints once it listens: the origins, accounts, app passwords, sign-in codes, approval,
    /// withheld permissions and faults, and the lines to use it from another shell.
    public func banner(_ endpoints: SandboxEndpoints) -> String {
        let faults = activeFaults.map { fault in
            if case .flag = fault.value { return fault.key }
            return "\(fault.key) \(fault.value.text)"
        }
        let codes = accounts.compactMap { account in account.authFactorToken.map { "\(account.handle) \($0)" } }
        return """
            atoauth sandbox is running (in memory; Ctrl-C stops it).
              PLC directory:         \(endpoints.plcDirectory.absoluteString)
              PDS:                   \(endpoints.pds.absoluteString)
              Authorization server:  \(endpoints.authorizationServer.absoluteString)
              Accounts:              \(accounts.map { "\($0.handle) (\($0.did))" }.joined(separator: ", "))
              App passwords:         \(accounts.map { "\($0.handle) \($0.appPassword)" }.joined(separator: ", "))
              Sign-in codes:         \(codes.isEmpty ? "none (app-password sign-ins ask for no code; see --two-factor)" : codes.joined(separator: ", "))
              Approval:              \(autoApprove ? "automatic" : "in the browser")
              Withheld permissions:  \(withheldPermissions.isEmpty ? "none" : withheldPermissions.joined(separator: " "))
              Faults:                \(faults.isEmpty ? "none" : faults.joined(separator: ", "))

            Use it from another shell:
            \(endpoints.shellExports)
              atoauth accounts add \(accounts.first?.handle ?? "alice.test")
            """
    }

    /// The same on one line of JSON, keys sorted: `plcDirectory`, `pds`, `authorizationServer`, `accounts`
    /// (`handle`, `did`, `appPassword`, and `authFactorToken` for two-factor accounts), `autoApprove`,
    /// `withheldPermissions`, `faults` (``activeFaults``) and `environment` (the variables for atoauth).
    public func summaryJSON(_ endpoints: SandboxEndpoints) -> String {
        let summary: [String: Any] = [
            "plcDirectory": endpoints.plcDirectory.absoluteString,
            "pds": endpoints.pds.absoluteString,
            "authorizationServer": endpoints.authorizationServer.absoluteString,
            "accounts": accounts.map { account in
                var entry = ["handle": account.handle, "did": account.did, "appPassword": account.appPassword]
                entry["authFactorToken"] = account.authFactorToken
                return entry
            },
            "autoApprove": autoApprove,
            "withheldPermissions": withheldPermissions,
            "faults": Dictionary(uniqueKeysWithValues: activeFaults.map { ($0.key, $0.value.json) }),
            "environment": endpoints.environment,
        ]
        return String(decoding: JSONBody.encode(summary), as: UTF8.self)
    }
}
