package import ATProtoIdentity
package import HTTPTransport
import Synchronization

/// Resolves names from a table, and any other name to one public address, without touching DNS.
package struct FakeAddressResolver: AddressResolver {
    /// The addresses of each name, as text; `localhost` is loopback unless replaced.
    package var table: [String: [String]]

    /// Resolves the names of `table` as it says, `localhost` to loopback and any other name to `1.1.1.1`.
    package init(table: [String: [String]] = [:]) {
        self.table = table.merging(["localhost": ["127.0.0.1", "::1"]]) { given, _ in given }
    }

    package func addresses(for host: String) async throws -> [IPAddress] {
        let texts = table[host] ?? ["1.1.1.1"]
        return texts.compactMap { IPAddress($0) }
    }
}

/// Answers every name with the next of its scripted answers, and the last one from then on, as a DNS name that is
/// being rebound does; counts the look-ups.
package final class RebindingAddressResolver: AddressResolver {
    private let answers: [[String]]
    private let asked = Mutex(0)

    /// Answers the first look-up with `answers[0]`, the second with `answers[1]`, and so on.
    package init(_ answers: [[String]]) {
        self.answers = answers
    }

    /// How many look-ups were made so far.
    package var lookUps: Int { asked.withLock { $0 } }

    package func addresses(for host: String) async throws -> [IPAddress] {
        let index = asked.withLock { count in
            defer { count += 1 }
            return count
        }
        guard let last = answers.last else { return [] }
        let texts = index < answers.count ? answers[index] : last
        return texts.compactMap { IPAddress($0) }
    }
}

/// A DNS that answers TXT queries from a table (no record for other names) and records the names asked.
package final class FakeDNS: DNSTXTResolver {
    private let table: [String: Result<[String], IdentityError>]
    private let asked = Mutex<[String]>([])

    /// Answers each name of `table` with its records or its failure.
    package init(_ table: [String: Result<[String], IdentityError>] = [:]) {
        self.table = table
    }

    /// The names asked so far, in order.
    package var queries: [String] { asked.withLock { $0 } }

    package func txtRecords(for name: String) async throws -> [String] {
        asked.withLock { $0.append(name) }
        return try (table[name] ?? .success([])).get()
    }
}

extension SafeFetcher {
    /// A fetcher over `transport` whose names resolve through a ``FakeAddressResolver``: every name to a public
    /// address, unless `addresses` says otherwise.
    package static func offline(
        _ transport: any HTTPTransport,
        allowHTTPLoopback: Bool = false,
        addresses: [String: [String]] = [:],
        maximumResponseSize: Int = 512 * 1024
    ) -> SafeFetcher {
        SafeFetcher(
            transport: transport,
            configuration: .init(allowHTTPLoopback: allowHTTPLoopback, maximumResponseSize: maximumResponseSize),
            addressResolver: FakeAddressResolver(table: addresses)
        )
    }
}
