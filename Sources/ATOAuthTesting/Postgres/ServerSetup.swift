import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes a throwaway server's directory, data, certificate and watchdog.
struct ServerSetup {
    /// The user `initdb` and `postgres` run as under root: `nobody`.
    static let unprivilegedID = 65534

    let directory: URL
    let binaries: URL
    let asRoot = geteuid() == 0

    var data: URL { directory.appendingPathComponent("data") }
    var log: URL { directory.appendingPathComponent("server.log") }

    init(directory: URL, binaries: URL) throws {
        self.directory = directory
        self.binaries = binaries
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("socket"),
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        try Data().write(to: directory.appendingPathComponent("server.log"))
    }

    /// Runs `initdb`, makes the certificate and writes the server's settings.
    func initialize() async throws {
        try await makeCertificate()
        try handOver()
        let result = try await CommandRunner.run(
            binaries.appendingPathComponent("initdb"),
            [
                "-D", data.path, "-U", "atoauth", "--auth-local=trust", "--auth-host=scram-sha-256", "--no-locale",
                "-E", "UTF8", "--no-sync",
            ],
            asUser: asRoot ? Self.unprivilegedID : nil
        )
        guard result.status == 0 else { throw ThrowawayPostgresError("initdb failed: \(result.output)") }
        let settings = """
            listen_addresses = '127.0.0.1'
            unix_socket_directories = '\(directory.appendingPathComponent("socket").path)'
            max_connections = 600
            shared_buffers = 32MB
            fsync = off
            synchronous_commit = off
            full_page_writes = off
            ssl = on
            ssl_cert_file = '\(directory.appendingPathComponent("server.crt").path)'
            ssl_key_file = '\(directory.appendingPathComponent("server.key").path)'
            log_min_messages = warning

            """
        let configuration = data.appendingPathComponent("postgresql.conf")
        let handle = try FileHandle(forWritingTo: configuration)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(settings.utf8))
        try handle.close()
    }

    /// Starts the watchdog, which starts the server on `port` and answers `down`, `up` and `stop` on its standard
    /// input; the end of its input (this process ending) stops the server and removes the directory.
    ///
    /// - Returns: The watchdog and the write end of its input.
    func launch(port: Int) throws -> (ChildProcess, FileHandle) {
        let privilege =
            asRoot ? "setpriv --reuid=\(Self.unprivilegedID) --regid=\(Self.unprivilegedID) --clear-groups " : ""
        // It waits for the server by its pid file, which the server removes when it has stopped.
        let script = """
            up() { \(privilege)"$1/postgres" -D "$2" -p "$3" >>"$4" 2>&1 & pid=$!; }
            down() {
                kill -"${1:-INT}" $pid 2>/dev/null
                while [ -e "$2/postmaster.pid" ]; do sleep 0.05; done  # polls for the server's end
            }
            up "$@"
            while read -r command; do
                case "$command" in
                    down) down ;;
                    up) up "$@" ;;
                    stop) break ;;
                esac
            done
            down QUIT  # an immediate shutdown: the folder is removed next, nothing in it needs to be written
            wait
            rm -rf "$5"
            """
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw ThrowawayPostgresError("cannot make a pipe (errno \(errno))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer { close(ends[0]) }
        do {
            let watchdog = try ChildProcess(
                URL(fileURLWithPath: "/bin/bash"),
                ["-c", script, "watchdog", binaries.path, data.path, "\(port)", log.path, directory.path],
                input: .descriptor(ends[0]),
                killedWhenDropped: false
            )
            return (watchdog, FileHandle(fileDescriptor: ends[1], closeOnDealloc: true))
        } catch {
            close(ends[1])
            throw error
        }
    }

    /// A self-signed certificate for `localhost` and 127.0.0.1, valid for two days.
    private func makeCertificate() async throws {
        let result = try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/openssl"),
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                "-keyout", directory.appendingPathComponent("server.key").path,
                "-out", directory.appendingPathComponent("server.crt").path,
            ]
        )
        guard result.status == 0 else { throw ThrowawayPostgresError("openssl failed: \(result.output)") }
        chmod(directory.appendingPathComponent("server.key").path, 0o600)
    }

    /// Under root, gives the directory and everything in it to the unprivileged user the server runs as.
    private func handOver() throws {
        guard asRoot else { return }
        let id = UInt32(Self.unprivilegedID)
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        var paths = [directory.path]
        while let relative = enumerator?.nextObject() as? String {
            paths.append(directory.appendingPathComponent(relative).path)
        }
        for path in paths where chown(path, id, id) != 0 {
            throw ThrowawayPostgresError("could not hand \(path) to the server's user (errno \(errno))")
        }
        // The temporary directory's parent is world-searchable; the socket directory is the server's own.
    }
}

/// Finds the server binaries: `ATOAUTH_POSTGRES_BIN`, else the newest `/usr/lib/postgresql/<version>/bin`.
enum PostgresBinaries {
    static func locate() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["ATOAUTH_POSTGRES_BIN"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        let newest = versions.compactMap { Int($0) }.sorted().last { version in
            FileManager.default.isExecutableFile(atPath: "\(root)/\(version)/bin/initdb")
        }
        guard let newest else {
            throw ThrowawayPostgresError(
                "no PostgreSQL server binaries in \(root)/<version>/bin: install Debian's postgresql package "
                    + "(scripts/test does), or set ATOAUTH_POSTGRES_BIN to the directory holding initdb and postgres"
            )
        }
        return URL(fileURLWithPath: "\(root)/\(newest)/bin")
    }
}
