import CProcessGuard

extension GatewayConfiguration {
    /// The port of ``defaultListen``.
    public static let defaultPort = 8787
    /// Where a gateway listens when told nothing: `127.0.0.1:8787`.
    public static let defaultListen = Listen.tcp(host: "127.0.0.1", port: defaultPort)

    /// The open files the admitted requests may need: each holds its client's connection, one to the PDS and, for a
    /// large body, a spool file; 256 more for the rest of the process.
    public var openFilesNeeded: Int { 3 * maximumConcurrentRequests + 256 }

    /// Raises the process's limit on open files to ``openFilesNeeded``, as far as the hard limit allows.
    ///
    /// - Returns: the limit when the hard one keeps it below what is needed, else `nil`.
    public func raiseOpenFileLimit() -> Int? {
        let limit = cprocessguard_raise_open_files(openFilesNeeded)
        return limit >= 0 && limit < openFilesNeeded ? limit : nil
    }
}
