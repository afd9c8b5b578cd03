import Keystore

/// The rows each scenario contributes to the report.
extension Figure {
    /// Proof throughput against raw signatures.
    static func proofs(_ result: ProofThroughput.Result) -> [Figure] {
        [
            Figure(
                section: "DPoP proof (CPU time of one thread)",
                name: "Proofs/s ÷ raw P-256 signatures/s over the same \(result.signingInputBytes) bytes",
                measured: "\(Format.count(1 / result.proofCPU)) proofs/s (\(Format.duration(result.proofCPU))) vs "
                    + "\(Format.count(1 / result.signatureCPU)) signatures/s (\(Format.duration(result.signatureCPU)))",
                ratio: result.ratio,
                goal: .atLeast(0.85)
            )
        ]
    }

    /// Client CPU added per XRPC call.
    static func overhead(_ result: ExecutorOverhead.Result, signatureCPU: Double) -> [Figure] {
        let section = "XRPC call, client CPU time (process clock; server in another process, verifying nothing)"
        return [
            Figure(
                section: section,
                name: "Added by the DPoP executor ÷ one signature (hot loop, as in the first row)",
                measured:
                    "+\(Format.duration(result.executorAddedCPU)) per call over \(Format.duration(result.plainCPU))"
                    + " (Bearer, same transport); one signature \(Format.duration(signatureCPU))",
                ratio: result.executorAddedCPU / signatureCPU,
                goal: .atMost(1.5)
            ),
            Figure(
                section: section,
                name: "Added by the DPoP executor ÷ one signature made between the same requests",
                measured:
                    "+\(Format.duration(result.executorAddedCPU)) vs +\(Format.duration(result.signatureInContextCPU))"
                    + " for a bare signature per call",
                // A short run on a loaded machine can measure no cost at all; then there is no ratio to give.
                ratio: result.signatureInContextCPU > 0 ? result.executorAddedCPU / result.signatureInContextCPU : nil,
                goal: .atMost(1.5)
            ),
            Figure(
                section: section,
                name: "Added by ATClient.query (through AccountManager, answer raw) ÷ one signature between requests",
                measured:
                    "+\(Format.duration(result.clientRawAddedCPU)) vs +\(Format.duration(result.signatureInContextCPU))"
                    + " for a bare signature per call",
                ratio: result.signatureInContextCPU > 0 ? result.clientRawAddedCPU / result.signatureInContextCPU : nil,
                goal: .atMost(1.5)
            ),
            Figure(
                section: section,
                name: "Added by ATClient.getSession (through AccountManager, answer decoded) ÷ one signature (loop)",
                measured: "+\(Format.duration(result.clientAddedCPU)) per call",
                ratio: result.clientAddedCPU / signatureCPU,
                goal: .atMost(1.5)
            ),
            Figure(
                section: section,
                name: "Added by ATClient.getSession ÷ one signature made between the same requests",
                measured:
                    "+\(Format.duration(result.clientAddedCPU)) vs +\(Format.duration(result.signatureInContextCPU))"
                    + " for a bare signature per call",
                ratio: result.signatureInContextCPU > 0 ? result.clientAddedCPU / result.signatureInContextCPU : nil,
                goal: .atMost(1.5)
            ),
        ]
    }

    /// Client CPU per token request, confidential against public.
    static func confidential(_ result: ConfidentialRequest.Result) -> [Figure] {
        let section = "Token request (refresh grant), client CPU time (process clock; server in another process)"
        let added = result.confidentialCPU - result.publicCPU
        return [
            Figure(
                section: section,
                name: "Confidential client (private_key_jwt, a new assertion per request) ÷ public client",
                measured:
                    "\(Format.duration(result.confidentialCPU)) vs \(Format.duration(result.publicCPU)) per request",
                ratio: result.publicCPU > 0 ? result.confidentialCPU / result.publicCPU : nil,
                goal: nil
            ),
            Figure(
                section: section,
                name: "Added by the client assertion ÷ one signature made between the same requests",
                measured:
                    "+\(Format.duration(added)) vs +\(Format.duration(result.signatureInContextCPU)) for a bare signature",
                ratio: result.signatureInContextCPU > 0 ? added / result.signatureInContextCPU : nil,
                goal: nil
            ),
        ]
    }

    /// The gateway against direct calls.
    static func gateway(_ result: GatewayThroughput.Result) -> [Figure] {
        let section = "atoauth gateway (a process of its own; plain server in another) against ATClient directly"
        let direct = result.direct
        var figures: [Figure] = []
        for (way, caller, goals) in [
            (result.gateway, "from a lean keep-alive caller like wrk", true),
            (result.gatewayFromFullClient, "from AsyncHTTPClient", false),
        ] {
            let addedP50 = way.latency.p50 - direct.latency.p50
            let addedP99 = way.latency.p99 - direct.latency.p99
            figures += [
                Figure(
                    section: section,
                    name: "Requests per second through the gateway \(caller) ÷ the same calls with ATClient, "
                        + "\(result.callers) callers",
                    measured: "\(Format.count(way.rate))/s vs \(Format.count(direct.rate))/s",
                    ratio: direct.rate > 0 ? way.rate / direct.rate : nil,
                    goal: goals ? .atLeast(0.7) : nil
                ),
                Figure(
                    section: section,
                    name: "Latency added by the gateway \(caller) at p50, one caller (ms)",
                    measured: "\(Format.duration(way.latency.p50)) vs \(Format.duration(direct.latency.p50))",
                    ratio: addedP50 * 1000,
                    goal: goals ? .atMost(0.3, "≤ 0.30 ms") : nil
                ),
                Figure(
                    section: section,
                    name: "Latency added by the gateway \(caller) at p99, one caller (ms)",
                    measured: "\(Format.duration(way.latency.p99)) vs \(Format.duration(direct.latency.p99))",
                    ratio: addedP99 * 1000,
                    goal: nil
                ),
            ]
        }
        if let few = result.memory.first, let many = result.memory.last, many.accounts > few.accounts {
            let perAccount = Double(many.bytes - few.bytes) / Double(many.accounts - few.accounts)
            figures.append(
                Figure(
                    section: section,
                    name:
                        "Gateway process memory with \(many.accounts) accounts ÷ with \(few.accounts), one call as each",
                    measured: "\(Format.mebibytes(many.bytes)) vs \(Format.mebibytes(few.bytes)); "
                        + "\(Format.count(perAccount / 1024)) KiB per account",
                    ratio: Double(many.bytes) / Double(max(1, few.bytes)),
                    goal: nil
                )
            )
        }
        return figures
    }

    /// Round trips under nonce rotation.
    static func rotation(_ result: NonceRotation.Result, period: Double) -> [Figure] {
        [
            Figure(
                section: "Nonce rotation (strict sandbox, ATClient)",
                name: "Round trips per call, \(Format.count(Double(result.calls))) calls, nonce rotating every "
                    + "\(Format.count(period)) s",
                measured: "\(Format.count(Double(result.roundTrips))) requests in \(Format.duration(result.wall)); "
                    + "\(result.rotations) rotations, \(result.challenges) nonce challenges",
                ratio: result.perCall,
                goal: .atMost(result.allowed, "≤ 1 + rotations / calls = \(Format.ratio(result.allowed, decimals: 4))"),
                decimals: 4
            )
        ]
    }

    /// The refresh storm.
    static func storm(_ rounds: [RefreshStorm.Round], calls: Int) -> [Figure] {
        let section = "Refresh storm (strict sandbox, \(Format.count(Double(calls))) concurrent calls)"
        let counts = rounds.map(\.refreshes)
        let worst = counts.first { $0 != 1 } ?? 1
        return [
            Figure(
                section: section,
                name: "Refresh grants per storm on an expired token",
                measured: counts.map(String.init).joined(separator: ", ")
                    + " (\(rounds.count) \(rounds.count == 1 ? "round" : "rounds"))",
                ratio: Double(worst),
                goal: .exactly(1)
            ),
            Figure(
                section: section,
                name: "Completion time, expired ÷ fresh token",
                measured: "\(Format.duration(Samples.median(rounds.map(\.expired)))) vs "
                    + "\(Format.duration(Samples.median(rounds.map(\.fresh)))) (medians, wall)",
                ratio: Samples.median(rounds.map { $0.expired / $0.fresh }),
                goal: nil
            ),
        ]
    }

    /// The keystore.
    static func keystore(_ result: KeystoreCost.Result) -> [Figure] {
        let section = "Keystore (wall time)"
        let memory = result.parameters.memoryLimit / 1_048_576
        return [
            Figure(
                section: section,
                name: "Open + read one entry, key-file mode",
                measured: Format.duration(result.keyFileOpenRead),
                ratio: nil,
                goal: nil
            ),
            Figure(
                section: section,
                name: "Open + read one entry, passphrase mode ÷ one bare Argon2id "
                    + "(opslimit \(result.parameters.operationsLimit), memlimit \(memory) MiB)",
                measured: "\(Format.duration(result.passphraseOpenRead)) vs \(Format.duration(result.argon2id))",
                ratio: result.passphraseRatio,
                goal: nil
            ),
            Figure(
                section: section,
                name: "Write + fsync one entry ÷ bare durable write of the same size",
                measured: "\(Format.duration(result.write)) vs \(Format.duration(result.writeFloor))",
                ratio: result.writeRatio,
                goal: nil
            ),
        ]
    }

    /// The command line.
    static func cli(_ commands: [CLICost.Command]) -> [Figure] {
        guard let floor = commands.first else { return [] }
        let section = "CLI against the sandbox (wall time; peak RSS by GNU time; floor: atoauth --version)"
        return commands.flatMap { command -> [Figure] in
            let name = "atoauth " + command.arguments.joined(separator: " ")
            var rows = [
                Figure(
                    section: section,
                    name: "\(name): wall time ÷ floor",
                    measured: Format.duration(command.wall),
                    ratio: command.wall / floor.wall,
                    goal: nil
                )
            ]
            if command.arguments == ["whoami"] {
                // Issue goal: a fresh process reuses the nonce kept from the last one, so it needs no challenge.
                rows.append(
                    Figure(
                        section: section,
                        name: "\(name): requests to the PDS per process (nonce kept from the previous process)",
                        measured: "\(Format.ratio(command.pdsRequestsPerRun)) requests per run",
                        ratio: command.pdsRequestsPerRun,
                        goal: .exactly(1)
                    )
                )
            }
            if let peak = command.peakResidentBytes, let floorPeak = floor.peakResidentBytes {
                rows.append(
                    Figure(
                        section: section,
                        name: "\(name): peak memory ÷ floor",
                        measured: Format.mebibytes(peak),
                        ratio: Double(peak) / Double(floorPeak),
                        goal: nil
                    )
                )
            }
            return rows
        }
    }
}
