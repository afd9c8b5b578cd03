import ATOAuthTesting
import Foundation
import Keystore
import Sandbox

/// Wall time, peak memory and requests to the PDS of `atoauth accounts list` and `atoauth whoami` against the
/// sandbox, next to `atoauth --version` (starting the process and parsing arguments: the floor of any command).
///
/// The account is signed in by this process into a key-file store. Each command then runs as its own process:
/// spawned directly for its wall time, and under GNU `time` for its peak memory when that is installed.
enum CLICost {
    /// One command's medians.
    struct Command: Sendable {
        /// The arguments after `atoauth`.
        var arguments: [String]
        /// Median wall time, in seconds.
        var wall: Double
        /// Median peak resident memory, in bytes; `nil` when it was not measured.
        var peakResidentBytes: Int?
        /// Requests the sandbox PDS received per run of the command (measured runs only, memory runs included).
        var pdsRequestsPerRun: Double
    }

    /// The measured commands, in the order they are reported: the floor first.
    static let commands = [["--version"], ["accounts", "list"], ["whoami"]]

    /// Signs in, then runs every command `rounds` times, interleaved; measures memory too when `memory` is set.
    static func run(atoauth: String, rounds: Int, memory: Bool) async throws -> [Command] {
        try await SandboxWorld.with(SandboxConfiguration(autoApprove: true)) { world in
            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("atoauth-bench-\(UUID().uuidString)", isDirectory: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let home = folder.appendingPathComponent("home", isDirectory: true)
            let keyFile = folder.appendingPathComponent("config/store.key")
            let keystore = try EncryptedFileKeystore(directory: home, keySource: .keyFile(keyFile))
            _ = try await world.signIn(with: world.accounts(keystore: keystore))

            var environment = world.endpoints.environment
            environment["ATOAUTH_HOME"] = home.path
            environment["ATOAUTH_KEY_FILE"] = keyFile.path
            environment["HOME"] = folder.path
            environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"

            var walls: [[Double]] = Array(repeating: [], count: commands.count)
            var peaks: [[Double]] = Array(repeating: [], count: commands.count)
            var pdsRequests = Array(repeating: 0, count: commands.count)
            var runs = Array(repeating: 0, count: commands.count)
            for round in -1..<rounds {  // Round -1 warms the page cache and is not counted.
                for (index, arguments) in commands.enumerated() {
                    let requestsBefore = world.server.counters.xrpcRequestsReceived
                    let run = try await ChildProcess.run(atoauth, arguments, environment: environment)
                    try check(run, arguments)
                    guard round >= 0 else { continue }
                    walls[index].append(run.wall.seconds)
                    runs[index] += 1
                    if memory {
                        let measured = try await PeakMemory.measure(atoauth, arguments, environment: environment)
                        try check(measured.run, arguments)
                        peaks[index].append(Double(measured.bytes))
                        runs[index] += 1
                    }
                    pdsRequests[index] += world.server.counters.xrpcRequestsReceived - requestsBefore
                }
            }
            return commands.indices.map { index in
                Command(
                    arguments: commands[index],
                    wall: Samples.median(walls[index]),
                    peakResidentBytes: peaks[index].isEmpty ? nil : Int(Samples.median(peaks[index])),
                    pdsRequestsPerRun: Double(pdsRequests[index]) / Double(max(runs[index], 1))
                )
            }
        }
    }

    /// Throws unless the command succeeded and, past `--version`, named the signed-in account.
    private static func check(_ run: ChildProcess.Run, _ arguments: [String]) throws {
        guard run.exit.status == 0, arguments == ["--version"] || run.output.contains("alice.test") else {
            throw BenchError("atoauth \(arguments.joined(separator: " ")) failed (\(run.exit.status)): \(run.output)")
        }
    }
}
