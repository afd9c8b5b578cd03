import ATOAuthTesting
import Foundation
import HTTPTransport
import SignInDoctor
import Testing

@Suite("The doctor's probe: a pushed authorization request sent and abandoned")
struct ProbeTests {
    @Test("The probe sends a DPoP-signed PAR with PKCE S256 and the scope, retried once with the nonce")
    func requestShape() async throws {
        let world = ScriptedWorld()
        let transport = world.transport()
        let diagnosis = try await world.diagnose(transport: transport)
        #expect(diagnosis.status("par-request") == .pass)
        let sent = transport.requests.filter { $0.url.absoluteString == ScriptedWorld.parEndpoint }
        #expect(sent.count == 2)
        for request in sent {
            #expect(request.headers["DPoP"] != nil)
            let form = String(decoding: request.body ?? Data(), as: UTF8.self)
            #expect(form.contains("code_challenge_method=S256"))
            #expect(
                form.contains("scope=atproto%20transition%3Ageneric")
                    || form.contains("scope=atproto+transition%3Ageneric")
            )
            #expect(form.contains("login_hint=alice.example.com"))
        }
        #expect(diagnosis.finding("dpop-nonce")?.seen.contains("brought a new nonce") == true)
    }

    @Test("A server that issues no nonce fails dpop-nonce, for its operator")
    func noNonces() async throws {
        var world = ScriptedWorld()
        world.pushedRequestAnswers = [
            ScriptedWorld.parAnswer(["request_uri": "urn:x", "expires_in": 60], status: 201, nonce: nil)
        ]
        let diagnosis = try await world.diagnose()
        let finding = try #require(diagnosis.finding("dpop-nonce"))
        #expect(finding.status == .fail)
        #expect(finding.who == .server)
        #expect(diagnosis.status("par-request") == .pass)
    }

    @Test("A server that refuses its own fresh nonce is a nonce loop")
    func nonceLoop() async throws {
        var world = ScriptedWorld()
        world.pushedRequestAnswers = [
            ScriptedWorld.parAnswer(["error": "use_dpop_nonce"], status: 400, nonce: "a"),
            ScriptedWorld.parAnswer(["error": "use_dpop_nonce"], status: 400, nonce: "b"),
        ]
        let diagnosis = try await world.diagnose()
        #expect(diagnosis.finding("dpop-nonce")?.seen.contains("nonce loop") == true)
        #expect(diagnosis.status("dpop-nonce") == .fail)
        #expect(diagnosis.status("par-request") == .fail)
    }

    /// The retry's nonce, and what `seen` must say of it.
    static let unrotatedRetries: [(String?, String)] = [
        ("nonce-1", "repeated the same nonce"), (nil, "carried no DPoP-Nonce header"),
    ]

    @Test(
        "A retry answered with the same nonce, or none, passes dpop-nonce, saying that rotation cannot be observed",
        arguments: Self.unrotatedRetries
    )
    func nonceNotRotated(retryNonce: String?, said: String) async throws {
        var world = ScriptedWorld()
        world.pushedRequestAnswers[1] = ScriptedWorld.parAnswer(
            ["request_uri": "urn:ietf:params:oauth:request_uri:x", "expires_in": 300],
            status: 201,
            nonce: retryNonce
        )
        let diagnosis = try await world.diagnose()
        let finding = try #require(diagnosis.finding("dpop-nonce"))
        #expect(finding.status == .pass)
        #expect(finding.seen.contains("accepted the retry"), "\(finding.seen)")
        #expect(finding.seen.contains(said), "\(finding.seen)")
        #expect(finding.seen.contains("cannot observe rotation"), "\(finding.seen)")
        #expect(!finding.seen.contains("new nonce"), "\(finding.seen)")
        #expect(diagnosis.status("par-request") == .pass)
    }

    @Test("A refused scope fails par-scope, for the app, with the server's words")
    func refusedScope() async throws {
        var world = ScriptedWorld()
        world.pushedRequestAnswers[1] = ScriptedWorld.parAnswer(
            ["error": "invalid_scope", "error_description": "rpc:x.y.z?aud=did:web:a.example#s is not allowed"],
            status: 400,
            nonce: "n"
        )
        let diagnosis = try await world.diagnose(scope: "atproto rpc:x.y.z?aud=did:web:a.example%23s")
        let finding = try #require(diagnosis.finding("par-scope"))
        #expect(finding.status == .fail)
        #expect(finding.who == .app)
        #expect(finding.seen.contains("is not allowed"))
        #expect(diagnosis.status("par-request") == .skip)
    }

    @Test("A permission set that does not resolve says who publishes it")
    func unresolvedPermissionSet() async throws {
        var world = ScriptedWorld()
        world.pushedRequestAnswers[1] = ScriptedWorld.parAnswer(
            [
                "error": "invalid_scope",
                "error_description": "permission set com.example.nothing could not be resolved",
            ],
            status: 400,
            nonce: "n"
        )
        let diagnosis = try await world.diagnose(scope: "atproto include:com.example.nothing")
        let finding = try #require(diagnosis.finding("par-scope"))
        #expect(finding.status == .fail)
        #expect(finding.fix?.contains("lexicon") == true)
    }

    @Test("A 200 in place of 201 Created warns")
    func okInsteadOfCreated() async throws {
        var world = ScriptedWorld()
        world.pushedRequestAnswers[1] = ScriptedWorld.parAnswer(["request_uri": "urn:x"], status: 200, nonce: "n")
        let diagnosis = try await world.diagnose()
        #expect(diagnosis.status("par-request") == .warn)
    }

    @Test(
        "The server's Date is compared with this machine's clock",
        arguments: [(0.0, Finding.Status.pass), (45, .warn), (-600, .fail), (3_600, .fail)]
    )
    func clock(offset: TimeInterval, expected: Finding.Status) async throws {
        var world = ScriptedWorld()
        let serverTime = Date().addingTimeInterval(offset)
        world.pushedRequestAnswers = [
            ScriptedWorld.parAnswer(["error": "use_dpop_nonce"], status: 400, nonce: "a", date: serverTime),
            ScriptedWorld.parAnswer(["request_uri": "urn:x"], status: 201, nonce: "a", date: serverTime),
        ]
        let diagnosis = try await world.diagnose()
        let finding = try #require(diagnosis.finding("server-clock"))
        #expect(finding.status == expected, "\(finding.seen)")
        if offset > 0 { #expect(finding.seen.contains("ahead")) }
        if offset < 0 { #expect(finding.seen.contains("behind")) }
    }

    @Test("An answer without a Date header warns")
    func noDate() async throws {
        var world = ScriptedWorld()
        var answer = ScriptedWorld.parAnswer(["request_uri": "urn:x"], status: 201, nonce: "a")
        answer.headers.remove(name: "Date")
        world.pushedRequestAnswers = [answer]
        let diagnosis = try await world.diagnose()
        #expect(diagnosis.status("server-clock") == .warn)
    }

    @Test("An unreachable PAR endpoint fails par-request and skips the rest of the probe")
    func unreachable() async throws {
        let world = ScriptedWorld()
        let transport = world.transport()
        transport.failing(ScriptedWorld.parEndpoint)
        let diagnosis = try await world.diagnose(transport: transport)
        #expect(diagnosis.status("par-request") == .fail)
        #expect(diagnosis.status("dpop-nonce") == .skip)
        #expect(diagnosis.status("server-clock") == .skip)
    }
}
