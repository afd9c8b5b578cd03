public import HTTPTransport

extension SafeFetcher {
    /// A fetcher whose every `GET` gets `answer`, with the real destination and answer checks.
    public static func serving(_ answer: HTTPResponse, allowHTTPLoopback: Bool = false) -> SafeFetcher {
        SafeFetcher(
            transport: FixedAnswer(answer: answer),
            configuration: .init(allowHTTPLoopback: allowHTTPLoopback),
            addressResolver: PublicAddressResolver()
        )
    }
}

/// A transport that answers every request with the same response, as a server would send it.
private struct FixedAnswer: HTTPTransport {
    let answer: HTTPResponse

    func send(_ request: HTTPRequest) async throws -> HTTPResponse { answer }
}

/// Resolves `localhost` to loopback and every other name to one public address, so a fetch passes the
/// destination checks without DNS.
private struct PublicAddressResolver: AddressResolver {
    func addresses(for host: String) async throws -> [IPAddress] {
        [IPAddress(host == "localhost" ? "127.0.0.1" : "93.184.215.14")].compactMap(\.self)
    }
}
