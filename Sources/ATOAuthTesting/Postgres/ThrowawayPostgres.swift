public import Failures
public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A PostgreSQL server of its own for tests: `initdb` in a temporary directory, a Unix socket there, and a loopback
/// TCP port the system chose (with TLS, from a certificate made for `localhost`), gone when the test process ends.
///
/// It runs Debian's server binaries (`/usr/lib/postgresql/<version>/bin`, or `ATOAUTH_POSTGRES_BIN`). `initdb` and
/// `postgres` refuse to run as root, so under root they run as the unprivileged user `nobody` (`setpriv`), in a
/// directory handed to that user. A small shell watchdog owns the server: it stops it and removes the directory when
/// its standard input closes, which happens when ``stop()`` is called or the test process ends in any way.
///
/// ```swift
/// let server = try await ThrowawayPostgres.shared()
/// let url = try await server.createDatabase().url
/// ```
///
/// The superuser `atoauth` connects without a password on the socket and with ``password`` over TCP
/// (`scram-sha-256`).
public final class ThrowawayPostgres: Sendable {
    /// The temporary directory holding the data, the socket, the certificate and the log.
    public let directory: URL
    /// The directory of the Unix socket.
    public let socketDirectory: String
    /// The TCP port on 127.0.0.1, which also names the socket file.
    public let port: Int
    /// The server's self-signed certificate (PEM), for `sslrootcert`; it names `localhost` and 127.0.0.1.
    public let certificate: String
    /// The superuser.
    public let user = "atoauth"
    /// The superuser's password, for TCP connections.
    public let password = "throwaway-password"

    let binaries: URL
    private let watchdog: ChildProcess
    private let commands: FileHandle

    private init(directory: URL, port: Int, binaries: URL, watchdog: ChildProcess, commands: FileHandle) {
        self.directory = directory
        self.socketDirectory = directory.appendingPathComponent("socket").path
        self.port = port
        self.certificate = directory.appendingPathComponent("server.crt").path
        self.binaries = binaries
        self.watchdog = watchdog
        self.commands = commands
    }

    /// The server shared by every test of this process, started on first use.
    public static func shared() async throws -> ThrowawayPostgres {
        try await SharedServer.instance.server()
    }

    /// Starts a new server, for a test that stops or restarts it; ``stop()`` it at the end.
    public static func start() async throws -> ThrowawayPostgres {
        let binaries = try PostgresBinaries.locate()
        var lastError: (any Error)?
        for _ in 0..<5 {
            do {
                return try await start(binaries: binaries)
            } catch let error as ThrowawayPostgresError where error.portTaken {
                lastError = error  // Another program took the port between choosing and binding: choose again.
            }
        }
        throw lastError ?? ThrowawayPostgresError("the server did not start")
    }

    private static func start(binaries: URL) async throws -> ThrowawayPostgres {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("atoauth-postgres-\(UUID().uuidString)", isDirectory: true)
        let setup = try ServerSetup(directory: directory, binaries: binaries)
        do {
            try await setup.initialize()
            let port = try ClosedPort().port
            let (watchdog, commands) = try setup.launch(port: port)
            let server = ThrowawayPostgres(
                directory: directory,
                port: port,
                binaries: binaries,
                watchdog: watchdog,
                commands: commands
            )
            do {
                try await server.waitUntilReady()
                try await server.execute("ALTER ROLE atoauth PASSWORD '\(server.password)'", database: "postgres")
                return server
            } catch {
                let log = (try? String(contentsOf: setup.log, encoding: .utf8)) ?? ""
                await server.stop()
                if log.contains("could not bind") || log.contains("Address already in use") {
                    throw ThrowawayPostgresError("the port was taken", portTaken: true)
                }
                throw ThrowawayPostgresError("the server did not start: \(log.suffix(2000))")
            }
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Stops the server and removes its directory.
    public func stop() async {
        send("stop")
        try? commands.close()
        await Waiting.atMost(.seconds(30)) { !watchdog.isRunning }
    }

    /// Stops the server (a fast shutdown: sessions end, connections close), keeps it down for `downtime`, then
    /// starts it again on the same socket and port and waits until it accepts connections.
    public func restart(downtime: Duration) async throws {
        send("down")
        try await waitUntilDown()
        try await Task.sleep(for: downtime)  // The outage the test asked for, on purpose.
        send("up")
        try await waitUntilReady()
    }

    /// Stops the server, for a test of what clients do while it is down; ``start()`` it again with ``resume()``.
    public func pause() async throws {
        send("down")
        try await waitUntilDown()
    }

    /// Starts a server stopped by ``pause()`` and waits until it accepts connections.
    public func resume() async throws {
        send("up")
        try await waitUntilReady()
    }

    private func send(_ command: String) {
        try? commands.write(contentsOf: Data((command + "\n").utf8))
    }

    private func waitUntilReady() async throws {
        try await Waiting.until("the PostgreSQL server to accept connections") {
            guard watchdog.isRunning else {
                throw ThrowawayPostgresError("the server's watchdog ended")
            }
            return try await isReady()
        }
    }

    private func waitUntilDown() async throws {
        try await Waiting.until("the PostgreSQL server to stop") {
            try await !isReady()
                && !FileManager.default.fileExists(atPath: directory.appendingPathComponent("data/postmaster.pid").path)
        }
    }

    private func isReady() async throws -> Bool {
        let result = try await CommandRunner.run(
            binaries.appendingPathComponent("pg_isready"),
            ["-q", "-h", socketDirectory, "-p", "\(port)", "-U", user, "-d", "postgres"]
        )
        return result.status == 0
    }
}

/// Why a throwaway server could not be used.
public struct ThrowawayPostgresError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    let portTaken: Bool

    init(_ description: String, portTaken: Bool = false) {
        self.description = description
        self.portTaken = portTaken
    }
}

/// The one shared server of the test process.
private actor SharedServer {
    static let instance = SharedServer()
    private var starting: Task<ThrowawayPostgres, any Error>?

    func server() async throws -> ThrowawayPostgres {
        if let starting { return try await starting.value }
        let task = Task { try await ThrowawayPostgres.start() }
        starting = task
        return try await task.value
    }
}

extension ThrowawayPostgresError: CategorizedError {
    /// The throwaway server could not be set up or started.
    public var category: FailureCategory { .failed }

    /// This machine: the server's programs, directory and port.
    public var origin: FailureOrigin { .machine }
}
