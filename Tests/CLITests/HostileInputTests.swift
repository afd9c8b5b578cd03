import ATOAuthTesting
import Foundation
import Testing

/// Numbers the CLI cannot use end in a usage error (exit 2), and a port from the wire that is not a TCP port ends
/// sign-in as a failed security check (exit 4); neither crashes or stores anything.
@Suite("Hostile numbers and ports through the CLI", .serialized)
struct HostileInputTests {
    @Test(
        "a timeout or callback port that does not fit is a usage error, not a crash",
        arguments: [
            ["--timeout", "99999999999999999999"], ["--timeout", "9223372036854775807"], ["--timeout=-5"],
            ["--timeout", "0"], ["--timeout", "86401"], ["--callback-port", "99999999999999999999"],
            ["--callback-port=-1"], ["--callback-port", "65536"], ["--plc-directory", "http://127.0.0.1:70000"],
            ["--handle-resolver", "http://127.0.0.1:99999999999999999999"],
        ]
    )
    func usage(_ options: [String]) async throws {
        try await CLIWorld.with { world in
            let result = try await CLIProcess.run(
                ["accounts", "add", "alice.test", "--no-browser"] + options,
                environment: world.environment
            )
            #expect(result.status == 2, "\(options): \(result.stderr)")
            #expect(!result.stderr.contains("Fatal error"))
            #expect(try world.storedNames().allSatisfy { !$0.hasPrefix("session/") && !$0.hasPrefix("pending/") })
        }
    }

    @Test(
        "a sandbox number out of its range is a usage error naming the option, not a crash",
        arguments: [
            ["--access-token-lifetime", "1e300"], ["--access-token-lifetime", "0"],
            ["--access-token-lifetime", "86401"], ["--access-token-lifetime", "1.5"],
            ["--access-token-lifetime", "nan"], ["--nonce-period", "inf"], ["--nonce-period", "0.5"],
            ["--nonce-period=-1e300"], ["--fail-refreshes", "101"], ["--fail-refreshes=-1"],
            ["--fail-refreshes", "99999999999999999999"], ["--slow-milliseconds", "60001"],
            ["--slow-milliseconds", "9223372036854775807"], ["--clock-skew", "86401"], ["--clock-skew", "-86401"],
            ["--clock-skew=0.5"], ["--clock-skew", "-1e300"], ["--plc-port", "70000"], ["--pds-port=-1"],
            ["--auth-port", "99999999999999999999"],
        ]
    )
    func sandboxNumbers(_ options: [String]) async throws {
        let result = try await CLIProcess.run(
            ["sandbox"] + options,
            environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"],
            timeout: .seconds(20)
        )
        #expect(result.status == 2, "\(options): \(result.stderr)")
        #expect(result.stderr.contains(options[0].split(separator: "=")[0]), "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
        #expect(result.stdout.isEmpty, "the sandbox did not start: \(result.stdout)")
    }

    @Test(
        "a DID document whose PDS names an unusable port fails the security check with exit 4",
        arguments: ["70000", "99999999999999999999"]
    )
    func hostilePDSPort(_ port: String) async throws {
        let did = "did:plc:hostile2hostile2hostile2"
        let document =
            ##"{"id":"\##(did)","service":[{"id":"#atproto_pds","type":"AtprotoPersonalDataServer","##
            + ##""serviceEndpoint":"http://127.0.0.1:\##(port)"}]}"##
        try await CLIWorld.with { world in
            try await LoopbackHTTPServer.withServer(handler: LoopbackHTTPServer.always(.json(document))) { plc in
                let result = try await CLIProcess.run(
                    ["accounts", "add", did, "--no-browser", "--plc-directory", plc.baseURL.absoluteString],
                    environment: world.environment
                )
                #expect(result.status == 4, "\(result.stderr)")
                #expect(result.stderr.contains("serviceEndpoint") || result.stderr.contains("port"), "\(result.stderr)")
                #expect(plc.requests.map(\.path) == ["/\(did)"])
            }
            #expect(try world.storedNames().allSatisfy { !$0.hasPrefix("session/") && !$0.hasPrefix("pending/") })
        }
    }
}
