import Foundation
import Testing
import WireFormat

@testable import Sandbox

@Suite("Encodings and small state machines")
struct PrimitiveTests {
    @Test("base32 matches RFC 4648 vectors in lowercase without padding")
    func base32() {
        #expect(Base32.encode(Array("foobar".utf8)) == "mzxw6ytboi")
        #expect(Base32.encode(Array("f".utf8)) == "my")
    }

    @Test("base58btc keeps leading zeros as ones")
    func base58() {
        #expect(Base58.encode([0, 0, 1]) == "112")
        #expect(Base58.encode(Array("hello world".utf8)) == "StV1DL6CwTryKyV")
    }

    @Test("blob CIDs are CIDv1 raw SHA-256 in base32")
    func contentID() {
        let cid = ContentID.blob(Data("hello".utf8))
        #expect(cid.hasPrefix("bafkrei"))
        #expect(cid.count == 59)
        #expect(ContentID.record(Data("{}".utf8)).hasPrefix("bafyrei"))
    }

    @Test("record keys and TIDs follow the atproto syntax")
    func syntax() {
        #expect(XRPCSyntax.isRecordKey("self") && XRPCSyntax.isRecordKey("3jzfcijpj2z2a"))
        #expect(!XRPCSyntax.isRecordKey("..") && !XRPCSyntax.isRecordKey("a/b"))
        #expect(XRPCSyntax.tid(micros: 0, clockID: 0) == "2222222222222")
    }

    @Test("nonces rotate every period and the previous, current and next are accepted")
    func nonceRotation() {
        let start = Date(timeIntervalSince1970: 1_000_000)
        let nonces = DPoPNonceState(random: .system, now: start)
        let first = nonces.current(now: start, period: 60)
        #expect(nonces.current(now: start.addingTimeInterval(59), period: 60) == first)
        let second = nonces.current(now: start.addingTimeInterval(60), period: 60)
        #expect(second != first)
        #expect(nonces.accepted(now: start.addingTimeInterval(61), period: 60).isSuperset(of: [first, second]))
        #expect(!nonces.accepted(now: start.addingTimeInterval(120), period: 60).contains(first))
        nonces.rotateNow()
        #expect(nonces.current(now: start.addingTimeInterval(61), period: 60) != second)
    }

    @Test("no period or clock jump traps the nonce rotation; a jump of many periods makes all three nonces new")
    func nonceRotationExtremes() {
        let start = Date(timeIntervalSince1970: 1_000_000)
        let nonces = DPoPNonceState(random: .system, now: start)
        let first = nonces.accepted(now: start, period: 60)
        let far = start.addingTimeInterval(1e300)
        #expect(nonces.accepted(now: far, period: 60).isDisjoint(with: first))
        let periods: [Double] = [.nan, .infinity, -.infinity, 0, -1, 1e-300, .leastNonzeroMagnitude, 1e300]
        for period in periods {
            #expect(nonces.accepted(now: far.addingTimeInterval(1e290), period: period).count <= 3)
        }
    }

    @Test("a clock set back (the clockSkew fault changed) starts the nonce period again from then")
    func nonceRotationClockSetBack() {
        let start = Date(timeIntervalSince1970: 1_000_000)
        let nonces = DPoPNonceState(random: .system, now: start)
        let first = nonces.current(now: start, period: 60)
        let back = start.addingTimeInterval(-3600)
        #expect(nonces.current(now: back, period: 60) == first)
        #expect(nonces.current(now: back.addingTimeInterval(59), period: 60) == first)
        #expect(nonces.current(now: back.addingTimeInterval(60), period: 60) != first)
    }

    @Test("whole seconds are rounded down and kept within 2^53 - 1; NaN is 0")
    func wholeSeconds() {
        #expect(WholeSeconds.of(59.9) == 59)
        #expect(WholeSeconds.of(-0.5) == -1)
        #expect(WholeSeconds.of(1e300) == 9_007_199_254_740_991)
        #expect(WholeSeconds.of(.infinity) == 9_007_199_254_740_991)
        #expect(WholeSeconds.of(-.infinity) == -9_007_199_254_740_991)
        #expect(WholeSeconds.of(.nan) == 0)
        #expect(WholeSeconds.since1970(Date(timeIntervalSince1970: 1_700_000_000.7)) == 1_700_000_000)
    }

    @Test("a jti is refused while remembered and accepted again after it expires")
    func jtiReplay() {
        let cache = JTIReplayCache()
        let now = Date(timeIntervalSince1970: 1_000_000)
        #expect(cache.insert("a", now: now, lifetime: 200))
        #expect(!cache.insert("a", now: now.addingTimeInterval(199), lifetime: 200))
        #expect(cache.insert("a", now: now.addingTimeInterval(201), lifetime: 200))
    }

    @Test("a fault set to fire twice fires twice and then turns itself off")
    func faultRepetition() {
        var repetition = SandboxFaults.Repetition.times(2)
        let firings = [repetition.fire(), repetition.fire(), repetition.fire()]
        #expect(firings == [true, true, false])
        #expect(repetition == .off)
    }
}
