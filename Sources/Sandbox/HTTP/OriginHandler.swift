/// Answers the requests of one origin (the PLC directory, the PDS or the authorization server).
protocol OriginHandler: Sendable {
    /// Which origin this handler serves, for the origin URL and logs.
    var role: OriginRole { get }

    /// Answers one request; never throws: every failure is an HTTP answer.
    func handle(_ request: SandboxRequest) async -> SandboxResponse
}

/// The three origins of the sandbox.
enum OriginRole: String, Sendable, CaseIterable {
    /// The PLC directory.
    case plcDirectory = "plc"
    /// The PDS (resource server, handle resolver).
    case pds
    /// The authorization server.
    case authorizationServer = "auth"
}
