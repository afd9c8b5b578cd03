import ATOAuthTesting
import Foundation
import Testing

/// `xrpc --header` and `--proxy`: what is sent, what is refused, and the permission check on the proxy's audience.
@Suite("xrpc --header and --proxy", .serialized)
struct XRPCHeaderTests {
    @Test("headers and the proxy reach the PDS as given; Accept replaces the default")
    func sent() async throws {
        let answer = ScriptedResponse.json(#"{"ok":true}"#)
        try await CLIWorld.withScriptedPDS(LoopbackHTTPServer.always(answer)) { world, pds in
            let first = try await world.atoauth(
                "xrpc",
                "com.example.feed.get",
                "--header",
                "atproto-accept-labelers: did:plc:ar7c4by46qjdydhdevvrndac;redact",
                "--header",
                "X-Trace:a\tb",
                "--header",
                "Accept:application/vnd.ipld.car",
                "--proxy",
                "did:web:feed.example#bsky_fg"
            )
            #expect(first.status == 0, "\(first.stderr)")
            let second = try await world.atoauth(
                "xrpc",
                "com.example.feed.get",
                "--header",
                "atproto-proxy:did:web:other.example#svc"
            )
            #expect(second.status == 0, "\(second.stderr)")
            let requests = pds.requests
            #expect(requests.count == 2)
            let sent = try #require(requests.first)
            #expect(sent.header("atproto-accept-labelers") == "did:plc:ar7c4by46qjdydhdevvrndac;redact")
            #expect(sent.header("X-Trace") == "a\tb")
            #expect(
                sent.headers.filter { $0.name.lowercased() == "accept" }.map(\.value) == [
                    "application/vnd.ipld.car"
                ]
            )
            #expect(sent.header("atproto-proxy") == "did:web:feed.example#bsky_fg")
            #expect(requests.last?.header("atproto-proxy") == "did:web:other.example#svc")
            #expect(requests.last?.header("Accept") == "application/json")
        }
    }

    @Test("the rpc permission is checked for the proxy's audience, locally and by the PDS")
    func proxyPermission() async throws {
        try await CLIWorld.with { world in
            let scope = "atproto rpc:app.bsky.actor.getProfile?aud=did:web:other.example%23svc"
            #expect(try await world.atoauth("accounts", "add", "alice.test", "--scope", scope).status == 0)
            let profile = ["xrpc", "app.bsky.actor.getProfile", "actor=alice.test"]

            let allowed = try await world.atoauth(profile + ["--proxy", "did:web:other.example#svc"])
            #expect(allowed.status == 0, "the PDS saw the header and its audience: \(allowed.stderr)")

            let before = try await world.sandbox.counters()
            let defaultProxy = try await world.atoauth(profile)
            #expect(defaultProxy.status == 3)
            #expect(
                defaultProxy.stderr.contains(
                    "needs the permission rpc:app.bsky.actor.getProfile?aud=did:web:api.bsky.app%23bsky_appview"
                ),
                "\(defaultProxy.stderr)"
            )
            let other = try await world.atoauth(profile + ["--header", "atproto-proxy:did:web:third.example#svc"])
            #expect(other.status == 3)
            #expect(other.stderr.contains("aud=did:web:third.example%23svc"), "\(other.stderr)")
            #expect(try await world.sandbox.counters().xrpcRequestsReceived == before.xrpcRequestsReceived)
        }
    }

    @Test("a header or proxy that cannot be sent is a usage error naming it, before anything is read or sent")
    func refused() async throws {
        try await ScratchHome.with { scratch in
            let cases: [([String], String)] = [
                (
                    ["--header", "Authorization:DPoP x"],
                    "--header cannot set Authorization: atoauth sends the session's"
                ),
                (["--header", "dpop:x"], "--header cannot set dpop"),
                (["--header", "Host:evil.example"], "--header cannot set Host: the HTTP client sets it."),
                (["--header", "Content-Length:1"], "--header cannot set Content-Length"),
                (["--header", "Transfer-Encoding:chunked"], "--header cannot set Transfer-Encoding"),
                (["--header", "Content-Type:image/png"], "give --content-type TYPE with --input"),
                (["--header", "X-Bad:a\r\nInjected: yes"], "--header X-Bad: the value may hold only printable ASCII"),
                (["--header", "X-Bad:caf\u{E9}"], "the value may hold only printable ASCII"),
                (["--header", "Bad Name:x"], "“Bad Name” is not a header name"),
                (["--header", ":x"], "“” is not a header name"),
                (["--header", "NoColon"], "--header takes NAME:VALUE"),
                (["--proxy", "did:web:feed.example"], "--proxy takes DID#SERVICE"),
                (["--proxy", "feed.example#svc"], "--proxy: invalid DID “feed.example”"),
                (["--proxy", "did:web:feed.example#"], "is not a service ID"),
                (["--proxy", "did:web:feed.example#a b"], "“a b” is not a service ID"),
                (
                    ["--proxy", "did:web:a.example#x", "--header", "atproto-proxy:did:web:b.example#y"],
                    "atproto-proxy is given twice"
                ),
                (["--header", "atproto-proxy:nonsense"], "--header atproto-proxy takes DID#SERVICE"),
            ]
            for (arguments, message) in cases {
                let result = try await scratch.atoauth(["xrpc", "com.atproto.server.getSession"] + arguments)
                #expect(result.status == 2, "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
                #expect(!result.stderr.contains("Injected: yes\n"))
            }
            #expect(!FileManager.default.fileExists(atPath: scratch.home.path))
        }
    }
}
