extension DID {
    /// Where the document of a DID this client supports is found (atproto.com/specs/did).
    public enum ResolutionTarget: Sendable, Hashable {
        /// A `did:plc`, fetched from the PLC directory.
        case plc
        /// A `did:web`, fetched from `https://<host>/.well-known/did.json`; a port only for `localhost`.
        case web(host: String, port: Int?)
    }

    /// Applies the stricter rule for DIDs this client resolves and says where the document is.
    ///
    /// Only `did:plc:` followed by 24 characters of `[a-z2-7]`, and `did:web:` followed by a bare host name, are
    /// accepted. A port is allowed only for `localhost`, written `did:web:localhost%3A1234`; fetching it also needs
    /// the development option that allows loopback. Throws ``SyntaxError`` otherwise.
    public func resolutionTarget() throws -> ResolutionTarget {
        let identifier = methodSpecificIdentifier
        switch method {
        case .plc:
            guard identifier.utf8.count == 24, identifier.utf8.allSatisfy(Self.isBase32Lowercase) else {
                throw SyntaxError(.did, rawValue, "a did:plc has 24 characters of a–z and 2–7")
            }
            return .plc
        case .web:
            return try webTarget(identifier)
        default:
            throw SyntaxError(.did, rawValue, "only did:plc and did:web are supported")
        }
    }

    private func webTarget(_ identifier: Substring) throws -> ResolutionTarget {
        let lowered = DomainSyntax.asciiLowercased(String(identifier))
        let localhostPrefix = "localhost%3a"
        if lowered.hasPrefix(localhostPrefix) {
            let portText = lowered.dropFirst(localhostPrefix.count)
            guard !portText.isEmpty, portText.count <= 5, portText.utf8.allSatisfy(DomainSyntax.isDigit),
                let port = Int(portText), (1...65_535).contains(port)
            else {
                throw SyntaxError(.did, rawValue, "the localhost port is not a number from 1 to 65535")
            }
            return .web(host: "localhost", port: port)
        }
        guard lowered == "localhost" || DomainSyntax.handleProblem(lowered) == nil else {
            throw SyntaxError(
                .did,
                rawValue,
                "a did:web must be a bare host name, without a path or a port (except localhost)"
            )
        }
        return .web(host: lowered, port: nil)
    }

    private static func isBase32Lowercase(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "2")...UInt8(ascii: "7")).contains(byte)
    }
}
