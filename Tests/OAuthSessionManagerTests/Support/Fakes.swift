import ATProtoIdentity
import Foundation
import HTTPTransport
import Synchronization

/// Resolves names from a table, and any other name to one public address, without touching DNS.
struct FakeAddressResolver: AddressResolver {
    var table: [String: [String]] = ["localhost": ["127.0.0.1", "::1"]]

    func addresses(for host: String) async throws -> [IPAddress] {
        let texts = table[host] ?? ["1.1.1.1"]
        return texts.compactMap { IPAddress($0) }
    }
}

/// A DNS that answers TXT queries from a table (no record for other names) and records the names asked.
final class FakeDNS: DNSTXTResolver {
    private let table: [String: Result<[String], IdentityError>]
    private let asked = Mutex<[String]>([])

    init(_ table: [String: Result<[String], IdentityError>] = [:]) {
        self.table = table
    }

    var queries: [String] { asked.withLock { $0 } }

    func txtRecords(for name: String) async throws -> [String] {
        asked.withLock { $0.append(name) }
        return try (table[name] ?? .success([])).get()
    }
}

/// A clock the test moves by hand.
final class TestClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_700_000_000))

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

/// Builds the URLs tests use, failing the test instead of crashing on a typo.
struct BadURL: Error {}

func url(_ text: String) throws -> URL {
    guard let url = URL(string: text) else { throw BadURL() }
    return url
}
