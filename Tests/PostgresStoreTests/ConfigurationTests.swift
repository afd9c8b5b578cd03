import Failures
import Foundation
import PostgresStore
import Testing

@Suite("A postgresql:// URL becomes a configuration; a bad one is refused without echoing its password")
struct ConfigurationTests {
    @Test("host, port, user, password, database and sslmode come from the URL")
    func fullURL() throws {
        let configuration = try PostgresStore.Configuration(
            url: "postgresql://bot:s%40cret@db.example:6543/atoauth?sslmode=verify-full&sslrootcert=/etc/ca.pem"
        )
        #expect(configuration.endpoint == .tcp(host: "db.example", port: 6543))
        #expect(configuration.username == "bot")
        #expect(configuration.password == "s@cret")
        #expect(configuration.database == "atoauth")
        #expect(configuration.tls == .verifyFull)
        #expect(configuration.rootCertificatePath == "/etc/ca.pem")
        #expect(configuration.description == "the PostgreSQL database atoauth on db.example:6543 (user bot)")
        #expect(!String(reflecting: configuration).contains("cret"))
        var dumped = ""
        dump(configuration, to: &dumped)
        #expect(!dumped.contains("cret"))
    }

    @Test(
        "a socket directory as host, as the host parameter or by default; IPv6 literals; defaults as libpq has them",
        arguments: [
            (
                "postgresql://u@%2Ftmp%2Fpg/db",
                PostgresStore.Configuration.Endpoint.unixSocket(path: "/tmp/pg/.s.PGSQL.5432")
            ),
            ("postgresql:///db?host=/run/pg&port=5433&user=u", .unixSocket(path: "/run/pg/.s.PGSQL.5433")),
            ("postgres://u@/db", .unixSocket(path: "/var/run/postgresql/.s.PGSQL.5432")),
            ("postgresql://u@[::1]:5999/db", .tcp(host: "::1", port: 5999)),
            ("postgresql://u@localhost/db", .tcp(host: "localhost", port: 5432)),
        ]
    )
    func endpoints(url: String, endpoint: PostgresStore.Configuration.Endpoint) throws {
        let configuration = try PostgresStore.Configuration(url: url)
        #expect(configuration.endpoint == endpoint)
        #expect(configuration.database == "db")
        #expect(configuration.tls == .prefer)
    }

    @Test(
        "without sslmode, a server on this machine gets prefer and any other verify-full",
        arguments: [
            ("postgresql://u@db.example/db", PostgresStore.TLSMode.verifyFull),
            ("postgresql://u@10.0.0.7/db", .verifyFull),
            ("postgresql://u@[2001:db8::1]/db", .verifyFull),
            ("postgresql://u@localhost/db", .prefer),
            ("postgresql://u@127.0.0.5:5433/db", .prefer),
            ("postgresql://u@[::1]/db", .prefer),
            ("postgresql://u@%2Frun%2Fpg/db", .prefer),
            ("postgresql://u@db.example/db?sslmode=disable", .disable),
        ]
    )
    func defaultTLS(url: String, mode: PostgresStore.TLSMode) throws {
        #expect(try PostgresStore.Configuration(url: url).tls == mode)
    }

    @Test("sslrootcert=system means the system's trust store; passfile names a password file")
    func systemRootsAndPassfile() throws {
        let configuration = try PostgresStore.Configuration(
            url: "postgresql://u@db.example/db?sslmode=verify-full&sslrootcert=system&passfile=/home/u/.pgpass"
        )
        #expect(configuration.rootCertificatePath == nil)
        #expect(configuration.passwordFile == "/home/u/.pgpass")
    }

    @Test("without a database the user's name is the database")
    func defaultDatabase() throws {
        #expect(try PostgresStore.Configuration(url: "postgresql://alice@host").database == "alice")
        #expect(
            try PostgresStore.Configuration(url: "postgresql://alice@host?connect_timeout=3").connectTimeout
                == .seconds(3)
        )
    }

    @Test(
        "unusable URLs are usage errors that say what is wrong and never repeat the password",
        arguments: [
            ("mysql://u:hunter2@h/db", "postgresql://"),
            ("postgresql://u:hunter2@h/db?sslmod=require", "unknown parameter 'sslmod'"),
            ("postgresql://u:hunter2@h/db?sslmode=maybe", "sslmode must be one of"),
            ("postgresql://u:hunter2@h:70000/db", "port"),
            ("postgresql://u:hunter2@h/db?port=0", "port"),
            ("postgresql://u:hunter2@h/db?connect_timeout=soon", "connect_timeout"),
            ("postgresql://u:hunter2@h/a%2Fb", "'/'"),
            ("postgresql://u:hunter2@h:99999999999999999999/db", "port"),
            ("postgresql://u:hunter2@h:5432/db?port=5433", "both after the host and as a parameter"),
            ("postgresql://u:hunter2@h/db?sslmode=verify-full&sslmode=disable", "'sslmode' more than once"),
            ("postgresql://u:hunter2@h/db?sslrootcert=/a&sslrootcert=/b", "'sslrootcert' more than once"),
            ("postgresql://u:hunter2@h/d%00b", "control character"),
            ("postgresql://u%1B:hunter2@h/db", "control character"),
            ("postgresql://u:hunter2@h%07/db", "control character"),
            ("postgresql://u:hunter2@h/db?application_name=a%0Ab", "control character"),
            ("postgresql://u:hunter2@h/db?ssl%1Bmode=x", "with a control character"),
            ("postgresql://u:hunter2@h/db?ssl%E2%80%AEmode=x", "with a control character"),
        ]
    )
    func invalid(url: String, expected: String) throws {
        let error = #expect(throws: PostgresStoreError.invalidURL) { try PostgresStore.Configuration(url: url) }
        #expect(error?.category == .usage)
        #expect(error?.description.contains(expected) == true, "\(error?.description ?? "")")
        #expect(error?.description.contains("hunter2") == false)
    }
}
