import ArgumentParser
import Foundation

/// `atoauth-bench [run] [--quick] [--only scenario]…`: runs the scenarios and prints the table.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run every scenario and print the table (the default)."
    )

    @Flag(help: "Run each scenario briefly (for CI: checks that nothing crashes and that one refresh is made).")
    var quick = false

    @Option(help: "The atoauth executable for the CLI figures (default: atoauth next to this executable).")
    var atoauth: String?

    @Option(
        name: .customLong("only"),
        help:
            ArgumentHelp(
                "Run only this scenario (repeatable): proofs, overhead, confidential, rotation, storm, keystore, "
                    + "stores, gateway, cli."
            )
    )
    var scenarios: [Scenario] = []

    @Option(help: "Accounts in the shared-store scenario's many-account setups (default: 1,000; 20 with --quick).")
    var storeAccounts: Int?

    @Option(help: "Rounds of the shared-store scenario (default: 3; 1 with --quick).")
    var storeRounds: Int?

    func validate() throws {
        if let storeAccounts, storeAccounts < 2 { throw ValidationError("--store-accounts must be at least 2.") }
        if let storeRounds, storeRounds < 1 { throw ValidationError("--store-rounds must be at least 1.") }
    }

    func run() async throws {
        var settings = quick ? BenchSettings.quick : BenchSettings.full
        settings.storeAccounts = storeAccounts ?? settings.storeAccounts
        settings.storeRounds = storeRounds ?? settings.storeRounds
        let selected = Set(scenarios.isEmpty ? Scenario.allCases : scenarios)
        print("atoauth-bench \(quick ? "--quick" : "(full)"), \(Date().formatted(.iso8601))")
        print("Machine: \(MachineDescription.summary()); load average at start: \(MachineDescription.loadAverage())")
        var figures: [Figure] = []
        if !selected.isDisjoint(with: [.proofs, .overhead]) {
            figures += try await signing(settings, overhead: selected.contains(.overhead))
        }
        if selected.contains(.confidential) {
            progress("client CPU per token request, confidential and public")
            let confidential = try await ConfidentialRequest.run(
                rounds: settings.overheadRounds,
                batch: settings.overheadBatch
            )
            figures += Figure.confidential(confidential)
        }
        if selected.contains(.rotation) {
            progress("round trips under nonce rotation")
            let rotation = try await NonceRotation.run(
                calls: settings.rotationCalls,
                workers: settings.rotationWorkers,
                period: settings.rotationPeriod
            )
            figures += Figure.rotation(rotation, period: settings.rotationPeriod)
        }
        var refreshCounts: [Int] = []
        var storeRefreshes: [Double] = []
        if selected.contains(.storm) {
            progress("refresh storm")
            let storm = try await RefreshStorm.run(calls: settings.stormCalls, rounds: settings.stormRounds)
            figures += Figure.storm(storm, calls: settings.stormCalls)
            refreshCounts = storm.map(\.refreshes)
        }
        if selected.contains(.keystore) {
            progress("keystore")
            let keystore = try KeystoreCost.run(
                openRounds: settings.keyFileRounds,
                passphraseRounds: settings.passphraseRounds,
                writeRounds: settings.writeRounds
            )
            figures += Figure.keystore(keystore)
        }
        if selected.contains(.stores) {
            progress(
                "PostgreSQL store beside the file store (a throwaway server; signing in \(settings.storeAccounts) accounts)"
            )
            let stores = try await SharedStores.run(
                accounts: settings.storeAccounts,
                stormCalls: settings.storeStormCalls,
                perCallCalls: settings.storeCalls,
                rounds: settings.storeRounds
            )
            figures += Figure.sharedStores(stores)
            storeRefreshes = stores.refreshesPerAccount
        }
        if selected.contains(.gateway) {
            progress("the gateway against direct calls")
            let gateway = try await GatewayThroughput.run(
                calls: settings.gatewayCalls,
                callers: 16,
                rounds: settings.gatewayRounds,
                latencyCalls: settings.gatewayLatencyCalls,
                accountCounts: settings.gatewayAccountCounts
            )
            figures += Figure.gateway(gateway)
            progress("the gateway with a scoped named token, and with the audit log")
            figures += Figure.gatewayLending(
                try await GatewayLending.run(calls: settings.gatewayCalls, callers: 16, rounds: settings.gatewayRounds)
            )
        }
        if selected.contains(.cli) {
            figures += try await commandLine(settings)
        }
        print("")
        print(ReportTable.markdown(figures))
        print("")
        print("Load average at end: \(MachineDescription.loadAverage())")
        guard refreshCounts.allSatisfy({ $0 == 1 }) else {
            progress("FAILED: the refresh storms made \(refreshCounts) refreshes; each must make exactly 1")
            throw ExitCode.failure
        }
        guard storeRefreshes.allSatisfy({ $0 == 1 }) else {
            progress("FAILED: the shared-store storms made \(storeRefreshes) refreshes per account; each must make 1")
            throw ExitCode.failure
        }
    }

    /// Proofs against signatures, then, when asked, client CPU per call (whose baseline is the signature time).
    private func signing(_ settings: BenchSettings, overhead: Bool) async throws -> [Figure] {
        progress("DPoP proofs against raw signatures")
        let proofs = try ProofThroughput.run(rounds: settings.proofRounds, batch: settings.proofBatch)
        guard overhead else { return Figure.proofs(proofs) }
        progress("client CPU per XRPC call")
        let calls = try await ExecutorOverhead.run(rounds: settings.overheadRounds, batch: settings.overheadBatch)
        return Figure.proofs(proofs) + Figure.overhead(calls, signatureCPU: proofs.signatureCPU)
    }

    /// The CLI figures, when an `atoauth` executable is there; peak memory only in the full run with GNU time.
    private func commandLine(_ settings: BenchSettings) async throws -> [Figure] {
        let executable = atoauth ?? Self.siblingExecutable("atoauth")
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            progress("CLI skipped: no executable at \(executable) (swift build -c release --product atoauth)")
            return []
        }
        progress("CLI commands")
        let memory = !quick && PeakMemory.isAvailable
        if !quick && !memory { progress("CLI peak memory skipped: GNU time is not installed (apt-get install time)") }
        return Figure.cli(try await CLICost.run(atoauth: executable, rounds: settings.cliRounds, memory: memory))
    }

    private func progress(_ message: String) {
        FileHandle.standardError.write(Data("atoauth-bench: \(message)\n".utf8))
    }

    private static func siblingExecutable(_ name: String) -> String {
        let own = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        return own.deletingLastPathComponent().appendingPathComponent(name).path
    }
}
