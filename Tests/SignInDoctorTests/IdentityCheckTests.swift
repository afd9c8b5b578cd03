import ATOAuthTesting
import ATProtoIdentity
import Foundation
import HTTPTransport
import SignInDoctor
import Testing

@Suite("The doctor's identity checks")
struct IdentityCheckTests {
    @Test("A healthy account passes every check; nothing is left unexplained")
    func healthy() async throws {
        let diagnosis = try await ScriptedWorld().diagnose()
        #expect(!diagnosis.hasFailure, "\(diagnosis.problems)")
        for check in diagnosis.checks
        where ![
            "client-metadata", "store-files", "session-expiry", "last-refresh",
            "account-moved", "session-live",
        ].contains(check.check) {
            #expect(check.status == .pass, "\(check.check): \(check.seen)")
        }
        #expect(diagnosis.finding("handle-resolution")?.seen.contains("DNS and HTTPS agree") == true)
    }

    @Test("DNS and HTTPS naming different DIDs fail handle-resolution, for the user, and the chain stops there")
    func methodsDisagree() async throws {
        var world = ScriptedWorld()
        world.wellKnownDID = .text("did:plc:aaaaaaaaaaaaaaaaaaaaaaaa")
        let diagnosis = try await world.diagnose()
        let finding = try #require(diagnosis.finding("handle-resolution"))
        #expect(finding.status == .fail)
        #expect(finding.who == .user)
        #expect(finding.seen.contains("did:plc:aaaaaaaaaaaaaaaaaaaaaaaa"))
        #expect(diagnosis.status("did-document") == .skip)
        #expect(diagnosis.hasFailure)
    }

    @Test("A handle under a reserved top-level domain fails handle-resolution without a look-up, as a sign-in does")
    func reservedTopLevelDomain() async throws {
        var world = ScriptedWorld()
        world.dns = ["_atproto.alice.onion": .success(["did=\(ScriptedWorld.did)"])]
        let diagnosis = try await world.diagnose("alice.onion")
        let finding = try #require(diagnosis.finding("handle-resolution"))
        #expect(finding.status == .fail)
        #expect(finding.seen.contains("reserved top-level domain .onion"), "\(finding.seen)")
        #expect(finding.who == .user)
        #expect(diagnosis.status("handle-dns") == .skip)
        #expect(diagnosis.status("handle-https") == .skip)
        #expect(diagnosis.status("did-document") == .skip)
    }

    @Test("A resolution service on this machine, with loopback not allowed, fails with the option that allows it")
    func loopbackResolverRefused() async throws {
        var world = ScriptedWorld()
        world.handleResolver = URL(string: "http://127.0.0.1:2583")
        let diagnosis = try await world.diagnose()
        let finding = try #require(diagnosis.finding("handle-resolution"))
        #expect(finding.status == .fail)
        #expect(finding.seen.contains("does not use https"), "\(finding.seen)")
        #expect(finding.fix?.contains("--allow-http-loopback") == true, "\(String(describing: finding.fix))")
    }

    @Test("A resolution service that does not answer fails handle-resolution, pointing at it, not at the spelling")
    func resolverUnreachable() async throws {
        var world = ScriptedWorld()
        world.handleResolver = URL(string: "https://resolver.example")
        let transport = world.transport()
        transport.failing(
            "https://resolver.example/xrpc/com.atproto.identity.resolveHandle?handle=\(ScriptedWorld.handle)"
        )
        let finding = try #require(try await world.diagnose(transport: transport).finding("handle-resolution"))
        #expect(finding.status == .fail)
        let fix = finding.fix ?? ""
        #expect(
            fix.contains("https://resolver.example (--handle-resolver)") && fix.contains("--request-timeout"),
            "\(fix)"
        )
        #expect(!fix.contains("spelling"), "\(fix)")
    }

    @Test("A PLC directory on this machine, with loopback not allowed, fails did-document naming the option")
    func loopbackDirectoryRefused() async throws {
        var world = ScriptedWorld()
        world.plcDirectory = URL(string: "http://127.0.0.1:2582")
        let diagnosis = try await world.diagnose(ScriptedWorld.did)
        let finding = try #require(diagnosis.finding("did-document"))
        #expect(finding.status == .fail)
        #expect(finding.fix?.contains("--allow-http-loopback") == true, "\(String(describing: finding.fix))")
    }

    @Test("A PLC directory that does not answer fails did-document, pointing at the network and the directory")
    func directoryUnreachable() async throws {
        let world = ScriptedWorld()
        let transport = world.transport()
        transport.failing("https://plc.directory/\(ScriptedWorld.did)")
        let finding = try #require(try await world.diagnose(transport: transport).finding("did-document"))
        #expect(finding.status == .fail)
        #expect(finding.fix?.contains("check the network and the PLC directory") == true, "\(finding.fix ?? "")")
    }

    @Test("A DID of a method AT Protocol does not use fails did-document, naming the methods it does")
    func unsupportedMethod() async throws {
        let finding = try #require(try await ScriptedWorld().diagnose("did:foo:bar").finding("did-document"))
        #expect(finding.status == .fail)
        #expect(finding.fix?.contains("did:plc and did:web") == true, "\(finding.fix ?? "")")
    }

    @Test("A handle served by HTTPS only passes: DNS is not needed then")
    func httpsOnly() async throws {
        var world = ScriptedWorld()
        world.dns = [:]
        let diagnosis = try await world.diagnose()
        #expect(diagnosis.status("handle-dns") == .pass)
        #expect(diagnosis.finding("handle-dns")?.seen.contains("no TXT record") == true)
        #expect(diagnosis.status("handle-resolution") == .pass)
    }

    @Test("A handle nothing resolves fails both methods with what to publish")
    func unresolvable() async throws {
        var world = ScriptedWorld()
        world.dns = [:]
        world.wellKnownDID = nil
        let diagnosis = try await world.diagnose()
        #expect(diagnosis.status("handle-dns") == .fail)
        #expect(diagnosis.status("handle-https") == .fail)
        #expect(diagnosis.status("handle-resolution") == .fail)
        #expect(diagnosis.finding("handle-dns")?.fix?.contains("_atproto.alice.example.com") == true)
        #expect(diagnosis.status("resource-metadata") == .skip)
        #expect(diagnosis.status("par-request") == .skip)
    }

    @Test("Two DIDs in DNS fail handle-dns, asking to keep one record")
    func conflictingRecords() async throws {
        var world = ScriptedWorld()
        world.dns = [
            "_atproto.alice.example.com": .success(["did=\(ScriptedWorld.did)", "did=did:plc:bbbbbbbbbbbbbbbbbbbbbbbb"])
        ]
        let diagnosis = try await world.diagnose()
        let finding = try #require(diagnosis.finding("handle-dns"))
        #expect(finding.status == .fail)
        #expect(finding.fix?.contains("exactly one") == true)
    }

    @Test("A DID document naming another handle fails did-handle")
    func documentNamesAnotherHandle() async throws {
        var world = ScriptedWorld()
        world.document["alsoKnownAs"] = ["at://someone-else.example.com"]
        let diagnosis = try await world.diagnose()
        let finding = try #require(diagnosis.finding("did-handle"))
        #expect(finding.status == .fail)
        #expect(finding.seen.contains("someone-else.example.com"))
        #expect(finding.who == .user)
    }

    @Test("From a DID, the handle its document names must resolve back to it; until it does, the probe names the DID")
    func handleMustPointBack() async throws {
        var world = ScriptedWorld()
        world.dns = ["_atproto.alice.example.com": .success(["did=did:plc:bbbbbbbbbbbbbbbbbbbbbbbb"])]
        world.wellKnownDID = nil
        let transport = world.transport()
        let diagnosis = try await world.diagnose(ScriptedWorld.did, transport: transport)
        #expect(diagnosis.status("did-document") == .pass)
        let finding = try #require(diagnosis.finding("did-handle"))
        #expect(finding.status == .fail)
        #expect(finding.seen.contains("resolves to did:plc:bbbbbbbbbbbbbbbbbbbbbbbb"))
        // As a sign-in, which sends a handle as login_hint only once it points back.
        let sent = transport.requests.filter { $0.url.absoluteString == ScriptedWorld.parEndpoint }
        let forms = sent.map { String(decoding: $0.body ?? Data(), as: UTF8.self) }
        #expect(!forms.isEmpty && forms.allSatisfy { !$0.contains("login_hint=alice.example.com") }, "\(forms)")
    }

    @Test(
        "A DID document whose id is another DID fails did-document, for the user; the checks after it are skipped",
        arguments: [ScriptedWorld.handle, ScriptedWorld.did]
    )
    func documentForAnotherDID(_ target: String) async throws {
        let other = "did:plc:cccccccccccccccccccccccc"
        var world = ScriptedWorld()
        world.document["id"] = other
        let diagnosis = try await world.diagnose(target)
        let finding = try #require(diagnosis.finding("did-document"))
        #expect(finding.status == .fail)
        #expect(finding.who == .user)
        #expect(finding.seen.contains(other), "\(finding.seen)")
        #expect(finding.fix?.contains("check that it is a PLC directory") == true, "\(finding.fix ?? "")")
        for check in ["did-handle", "did-pds", "pds-address", "resource-metadata", "par-request"] {
            #expect(diagnosis.status(check) == .skip, "\(check): \(diagnosis.finding(check)?.seen ?? "missing")")
        }
        let healthy = try await ScriptedWorld().diagnose(target)
        #expect(diagnosis.checks.map(\.check) == healthy.checks.map(\.check), "every check appears, once")
    }

    @Test("A PDS on a private address fails pds-address, for the server's operator")
    func privatePDS() async throws {
        var world = ScriptedWorld()
        world.addresses = ["pds.example.com": ["10.0.0.7"]]
        let diagnosis = try await world.diagnose()
        let finding = try #require(diagnosis.finding("pds-address"))
        #expect(finding.status == .fail)
        #expect(finding.who == .server)
        #expect(finding.seen.contains("private"))
    }

    @Test("A document without #atproto_pds fails did-pds")
    func noPDSService() async throws {
        var world = ScriptedWorld()
        world.document["service"] = []
        let diagnosis = try await world.diagnose()
        #expect(diagnosis.status("did-pds") == .fail)
        #expect(diagnosis.status("pds-address") == .skip)
        #expect(diagnosis.status("resource-metadata") == .skip)
    }

    @Test("A server URL skips the identity checks and examines the server")
    func serverURL() async throws {
        let diagnosis = try await ScriptedWorld().diagnose(ScriptedWorld.pds)
        #expect(diagnosis.status("handle-dns") == .skip)
        #expect(diagnosis.status("did-document") == .skip)
        #expect(diagnosis.status("resource-metadata") == .pass)
        #expect(diagnosis.status("par-request") == .pass)
        #expect(diagnosis.status("account-moved") == .skip)
    }

    @Test(
        "What is none of a handle, a DID or an https URL is a usage error",
        arguments: [
            "not a handle!", "ftp://pds.example.com", "http://pds.example.com",
        ]
    )
    func badInput(_ input: String) async throws {
        await #expect(throws: DoctorInputError.self) { try await ScriptedWorld().diagnose(input) }
    }

    @Test("A scope that is not a permission scope is a usage error")
    func badScope() async throws {
        await #expect(throws: DoctorInputError.self) {
            try await ScriptedWorld().diagnose(scope: "atproto bogus:thing")
        }
    }
}
