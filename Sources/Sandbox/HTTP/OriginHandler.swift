import Hummingbird

/// The routes of one origin (the PLC directory, the PDS or the authorization server).
protocol OriginHandler: Sendable {
    /// Which origin this handler serves, for the origin URL and logs.
    var role: OriginRole { get }

    /// Adds the origin's endpoints to `router`; every failure is an HTTP answer, or a thrown ``SandboxRejection``
    /// that a ``RejectionMiddleware`` answers.
    func addRoutes(to router: Router<SandboxContext>)

    /// Notes a request whose head has arrived, before its body is read.
    func headArrived(path: String)
}

extension OriginHandler {
    func headArrived(path: String) {}
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

extension OriginRole {
    /// The largest request body the origin reads, in bytes; a larger one is answered `413 PayloadTooLarge`.
    ///
    /// 64 MiB for the PDS, whose `com.atproto.repo.uploadBlob` takes whole blobs (videos included); 1 MiB for the
    /// PLC directory and the authorization server, whose requests are small forms and JSON.
    var maximumBodySize: Int {
        switch self {
        case .pds: 64 << 20
        case .plcDirectory, .authorizationServer: 1 << 20
        }
    }
}
