import Foundation
import HTTPTransport
import Sandbox
import Testing

@Suite("POST /_sandbox/settings takes each number only within its range, refuses the rest, and keeps serving")
struct SettingsRangeTests {
    /// A body the settings endpoint must refuse, and the setting its refusal must name.
    struct Refused: Sendable, CustomTestStringConvertible {
        var setting: String
        var value: String

        /// `{"<setting>": <value>}`.
        var body: String { "{\"\(setting)\": \(value)}" }
        var testDescription: String { body }
    }

    /// Each numeric setting and the range its refusal states.
    static let ranges = [
        "accessTokenLifetime": "a whole number of seconds from 1 to 86400",
        "nonceRotationPeriod": "a whole number of seconds from 1 to 86400",
        "refreshServerErrors": "a whole number of refreshes from 0 to 100",
        "slowResponses": "a number of seconds from 0 to 60",
    ]

    /// Values no numeric setting takes: too large for any `Int` or `Duration`, negative, beyond `Double` (a JSON
    /// number has no NaN or infinity, RFC 8259 §6), or not numbers at all.
    static let refusedEverywhere = [
        "1e300", "-1e300", "-1", "9223372036854775808", "18446744073709551616", #""NaN""#, #""Infinity""#,
        "true", "[]", "{}",
    ]

    static let refused: [Refused] =
        ranges.keys.sorted().flatMap { setting in refusedEverywhere.map { Refused(setting: setting, value: $0) } } + [
            Refused(setting: "accessTokenLifetime", value: "0"),
            Refused(setting: "accessTokenLifetime", value: "86401"),
            Refused(setting: "accessTokenLifetime", value: "1.5"),
            Refused(setting: "nonceRotationPeriod", value: "0"),
            Refused(setting: "nonceRotationPeriod", value: "86401"),
            Refused(setting: "nonceRotationPeriod", value: "60.5"),
            Refused(setting: "refreshServerErrors", value: "101"),
            Refused(setting: "refreshServerErrors", value: "2.5"),
            Refused(setting: "slowResponses", value: "60.001"),
            Refused(setting: "slowResponses", value: "-0.5"),
            Refused(setting: "autoApprove", value: "1"),
            Refused(setting: "newNonceOnEveryResponse", value: #""yes""#),
            Refused(setting: "withheldPermissions", value: #""atproto""#),
            Refused(setting: "withheldPermissions", value: #"["two tokens"]"#),
        ]

    static func post(_ sandbox: SandboxHarness, _ body: String) async throws -> HTTPResponse {
        try await sandbox.transport.send(
            HTTPRequest(
                method: .post,
                url: sandbox.endpoints.authorizationServer.appending(path: "_sandbox/settings"),
                headers: ["Content-Type": "application/json"],
                body: Data(body.utf8)
            )
        )
    }

    /// Whether every origin still answers: the PLC directory, the PDS's handle resolution, the counters.
    static func stillServing(_ sandbox: SandboxHarness) async throws {
        let did = SandboxAccount.derivedDID(for: "alice.test")
        let document = try await sandbox.transport.send(
            HTTPRequest(url: sandbox.endpoints.plcDirectory.appending(path: did))
        )
        #expect(document.status == 200)
        var components = try #require(
            URLComponents(
                url: sandbox.endpoints.pds.appending(path: "xrpc/com.atproto.identity.resolveHandle"),
                resolvingAgainstBaseURL: false
            )
        )
        components.queryItems = [URLQueryItem(name: "handle", value: "alice.test")]
        let resolved = try await sandbox.transport.send(HTTPRequest(url: try #require(components.url)))
        #expect(try resolved.json()["did"] as? String == did)
        let counters = try await sandbox.transport.send(
            HTTPRequest(url: sandbox.endpoints.authorizationServer.appending(path: "_sandbox/counters"))
        )
        #expect(counters.status == 200)
    }

    @Test("a number beyond Double (1e999) makes the body unreadable: 400, nothing changes, and it keeps serving")
    func unrepresentableNumber() async throws {
        try await withSandbox { sandbox in
            let before = sandbox.server.configuration
            for setting in Self.ranges.keys.sorted() {
                let response = try await Self.post(sandbox, "{\"\(setting)\": 1e999}")
                #expect(response.status == 400, "\(response.text)")
                #expect(try response.json()["error"] as? String == "InvalidRequest")
                #expect(sandbox.server.configuration == before)
            }
            try await Self.stillServing(sandbox)
        }
    }

    @Test(
        "a value out of range, not finite, not whole, or of the wrong type: 400 naming the setting",
        arguments: refused
    )
    func refusedSetting(_ refused: Refused) async throws {
        try await withSandbox { sandbox in
            let before = sandbox.server.configuration
            let response = try await Self.post(sandbox, refused.body)
            #expect(response.status == 400, "\(response.text)")
            let answer = try response.json()
            #expect(answer["error"] as? String == "InvalidRequest")
            #expect(answer["setting"] as? String == refused.setting)
            let message = try #require(answer["message"] as? String)
            #expect(message.hasPrefix(refused.setting), "\(message)")
            if let range = Self.ranges[refused.setting] {
                #expect(message == "\(refused.setting) must be \(range)")
            }
            #expect(sandbox.server.configuration == before)
            #expect(sandbox.logMessages.contains { $0.contains("settings refused: \(refused.setting)") })

            let accepted = try await Self.post(sandbox, #"{"accessTokenLifetime": 600}"#)
            #expect(accepted.status == 200)
            #expect(sandbox.server.configuration.accessTokenLifetime == 600)
            try await Self.stillServing(sandbox)
        }
    }

    @Test("one refused setting applies none of the others sent with it")
    func nothingAppliedOnRefusal() async throws {
        try await withSandbox { sandbox in
            let response = try await Self.post(
                sandbox,
                #"{"autoApprove": false, "refreshServerErrors": 3, "accessTokenLifetime": 1e300}"#
            )
            #expect(response.status == 400)
            #expect(try response.json()["setting"] as? String == "accessTokenLifetime")
            let configuration = sandbox.server.configuration
            #expect(configuration.autoApprove)
            #expect(configuration.faults.refreshServerError == .off)
            #expect(configuration.accessTokenLifetime == 1800)
        }
    }

    @Test("a body that is not a JSON object is refused with 400 and names no setting", arguments: ["", "[]", "1", "{"])
    func notAnObject(_ body: String) async throws {
        try await withSandbox { sandbox in
            let response = try await Self.post(sandbox, body)
            #expect(response.status == 400)
            let answer = try response.json()
            #expect(!answer.keys.contains("setting"))
            #expect(answer["message"] as? String == "send a JSON object of settings")
            try await Self.stillServing(sandbox)
        }
    }

    @Test("the bounds themselves, and whole numbers written with a fraction, are taken")
    func boundsTaken() async throws {
        try await withSandbox { sandbox in
            let bodies = [
                #"{"accessTokenLifetime": 1, "nonceRotationPeriod": 1, "refreshServerErrors": 0, "slowResponses": 0}"#,
                #"{"accessTokenLifetime": 86400, "nonceRotationPeriod": 86400, "refreshServerErrors": 100}"#,
                #"{"accessTokenLifetime": 3600.0, "refreshServerErrors": 2.0, "slowResponses": 0.25}"#,
            ]
            for body in bodies {
                let response = try await Self.post(sandbox, body)
                #expect(response.status == 200, "\(body): \(response.text)")
            }
            let configuration = sandbox.server.configuration
            #expect(configuration.accessTokenLifetime == 3600)
            #expect(configuration.nonceRotationPeriod == 86400)
            #expect(configuration.faults.refreshServerError == .times(2))
            #expect(configuration.faults.slowResponses == 0.25)
            let off = try await Self.post(sandbox, #"{"slowResponses": 0, "refreshServerErrors": 0}"#)
            #expect(try off.json()["applied"] as? [String] == ["refreshServerErrors", "slowResponses"])
            #expect(sandbox.server.configuration.faults.slowResponses == nil)
            #expect(sandbox.server.configuration.faults.refreshServerError == .off)
            try await Self.stillServing(sandbox)
        }
    }

    @Test("lifetimes beyond any date, set through the Swift API, are clamped where they become whole seconds")
    func hugeLifetimesThroughTheSwiftAPI() async throws {
        try await withSandbox { sandbox in
            sandbox.server.updateConfiguration { configuration in
                configuration.accessTokenLifetime = 1e300
                configuration.sessionLifetime = .infinity
                configuration.requestURILifetime = 1e300
                configuration.nonceRotationPeriod = 1e-300
                configuration.faults.slowResponses = .nan
            }
            let tokens = try await sandbox.client().signIn()
            #expect(tokens.expiresIn == 9_007_199_254_740_991)
            let alice = try #require(sandbox.server.configuration.account(for: "alice.test"))
            let session = try await sandbox.transport.send(
                HTTPRequest(
                    method: .post,
                    url: sandbox.endpoints.pds.appending(path: "xrpc/com.atproto.server.createSession"),
                    headers: ["Content-Type": "application/json"],
                    body: try JSONSerialization.data(withJSONObject: [
                        "identifier": alice.handle, "password": alice.appPassword,
                    ])
                )
            )
            #expect(session.status == 200, "\(session.text)")
            try await Self.stillServing(sandbox)
        }
    }

    @Test("a range refuses what is not finite, outside it, or not whole where whole numbers are asked for")
    func rangeProblems() throws {
        let lifetime = try #require(SandboxSetting.accessTokenLifetime.range)
        let refused: [Double] = [.nan, .infinity, -.infinity, 0, -1, 86_401, 1.5, 1e300, .greatestFiniteMagnitude]
        for value in refused {
            #expect(lifetime.problem(value) == "accessTokenLifetime must be a whole number of seconds from 1 to 86400")
        }
        for value: Double in [1, 60, 86_400] { #expect(lifetime.problem(value) == nil) }
        let slow = try #require(SandboxSetting.slowResponses.range)
        #expect(slow.problem(0.25) == nil && slow.problem(60) == nil && slow.problem(0) == nil)
        #expect(slow.problem(60.5) != nil && slow.problem(.nan) != nil)
        let milliseconds = slow.renamed("--slow-milliseconds", unit: "milliseconds", scale: 1000)
        #expect(milliseconds.problem(60_000) == nil)
        #expect(milliseconds.problem(60_001) == "--slow-milliseconds must be a number of milliseconds from 0 to 60000")
        #expect(SandboxSetting.refreshServerErrors.range?.problem(Double(Int.max)) != nil)
    }
}
