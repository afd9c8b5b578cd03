import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension PostgresStore {
    /// A libpq password file: a way to give the database password that other users of the machine cannot read,
    /// unlike a password in a command line (postgresql.org/docs/current/libpq-pgpass.html).
    ///
    /// Each line is `hostname:port:database:username:password`; `*` matches anything, `\` escapes `:` and `\`, and
    /// lines starting with `#` are comments. The first matching line gives the password. `localhost` also matches
    /// a Unix socket. The file must be a regular file that only its owner may read or write (`0600`), as libpq asks.
    public enum PasswordFile {
        /// The password the file at `path` holds for `configuration`'s server, database and user, or `nil` when no
        /// line matches.
        ///
        /// - Throws: ``PostgresStoreError`` of kind `invalidURL` (a usage error) when the file cannot be read, is not a regular file
        ///   of at most 64 KiB, or may be read or written by others; the message never shows a password.
        public static func password(for configuration: Configuration, path: String) throws -> String? {
            let text = try read(path)
            let (host, port) = target(configuration.endpoint)
            for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
                let fields = split(line)
                guard fields.count == 5 else { continue }
                let wanted = [host, port, configuration.database, configuration.username]
                if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
            }
            return nil
        }

        private static func target(_ endpoint: Configuration.Endpoint) -> (host: String, port: String) {
            switch endpoint {
            case .tcp(let host, let port):
                return (host, "\(port)")
            case .unixSocket(let path):
                return ("localhost", String(path.split(separator: ".").last ?? "5432"))
            }
        }

        /// The fields of a line, with `\:` and `\\` unescaped.
        private static func split(_ line: Substring) -> [String] {
            var fields = [""]
            var escaped = false
            for character in line {
                if escaped {
                    fields[fields.count - 1].append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == ":" {
                    fields.append("")
                } else {
                    fields[fields.count - 1].append(character)
                }
            }
            return fields
        }

        private static func read(_ path: String) throws -> String {
            let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw PostgresStoreError.passwordFile(path, "cannot be opened")
            }
            defer { close(descriptor) }
            var status = stat()
            guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
                throw PostgresStoreError.passwordFile(path, "is not a regular file")
            }
            guard status.st_mode & 0o077 == 0 else {
                throw PostgresStoreError.passwordFile(
                    path,
                    "may be read or written by others; make it 0600 (chmod 600)"
                )
            }
            guard status.st_size <= 64 << 10 else {
                throw PostgresStoreError.passwordFile(path, "is larger than 64 KiB")
            }
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
            let data: Data
            do {
                data = try handle.readToEnd() ?? Data()
            } catch {
                throw PostgresStoreError.passwordFile(path, "cannot be read")
            }
            guard let text = String(data: data, encoding: .utf8) else {
                throw PostgresStoreError.passwordFile(path, "is not readable UTF-8 text")
            }
            return text
        }
    }
}
