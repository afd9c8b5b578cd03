import CProcessGuard

extension GatewayConfiguration {
    /// The port of ``defaultListen``.
    public static let defaultPort = 8787
    /// Where a gateway listens when told nothing: `127.0.0.1:8787`.
    public static let defaultListen = Listen.tcp(host: "127.0.0.1", port: defaultPort)

    /// The open files the admitted requests may need: each holds its client's connection, one to the PDS and, for a
    /// large body, a spool file; 256 more for the rest of the process.
    public var openFilesNeeded: Int { 3 * maximumConcurrentRequests + 256 }

    /// The descriptors kept for the rest of the process when the open-file limit is below ``openFilesNeeded``: the
    /// runtime opens files too (libdispatch reads `/proc` to size its thread pool, and stops the process when it
    /// cannot), as do the store and the connections to the PDS.
    public static let reservedDescriptors = 64

    /// This configuration with its connections and requests in flight capped to what `openFiles` allows beside
    /// ``reservedDescriptors``, three to a request (its connection, one to the PDS, a spool file), so that a
    /// neighbour opening connections cannot take the process's last descriptor; unchanged when the limit suffices.
    public func fitted(toOpenFiles openFiles: Int) -> GatewayConfiguration {
        guard openFiles < openFilesNeeded else { return self }
        let cap = max(1, (openFiles - Self.reservedDescriptors) / 3)
        var fitted = self
        fitted.maximumConnections = min(connectionLimit, cap)
        fitted.maximumConcurrentRequests = min(maximumConcurrentRequests, cap)
        return fitted
    }

    /// Raises the process's limit on open files to ``openFilesNeeded``, as far as the hard limit allows.
    ///
    /// - Returns: the limit when the hard one keeps it below what is needed, else `nil`.
    public func raiseOpenFileLimit() -> Int? {
        let limit = cprocessguard_raise_open_files(openFilesNeeded)
        return limit >= 0 && limit < openFilesNeeded ? limit : nil
    }
}
