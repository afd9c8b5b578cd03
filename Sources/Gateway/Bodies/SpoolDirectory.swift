import Foundation

#if canImport(Glibc)
// As in UnixSocketProbe: with member import visibility the compiler may attribute `stat` to CDispatch.
import CDispatch
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The directory large request bodies are spooled to: the user's own, mode 0700, swept of any spool file a process
/// killed at the wrong moment left behind.
struct SpoolDirectory: Sendable {
    /// The directory's path.
    let path: String

    /// Makes `url` (and its parents) if missing, checks that it is a directory of this user and not a symbolic link,
    /// sets it to 0700, and removes the spool files in it.
    ///
    /// A spool file is unlinked as soon as it is opened, so a name found here is a leftover: removing it takes no
    /// body from a gateway that is running, whose open file stays readable.
    ///
    /// - Throws: ``GatewayError`` when the directory cannot be made or is not this user's.
    init(_ url: URL) throws {
        let path = url.path
        self.path = path
        do {
            try FileManager.default.createDirectory(
                atPath: path,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw GatewayError.spoolDirectory(path, "it cannot be made (\(error.localizedDescription))")
        }
        var status = stat()
        guard lstat(path, &status) == 0 else {
            throw GatewayError.spoolDirectory(path, String(cString: strerror(errno)))
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw GatewayError.spoolDirectory(path, "it is not a directory (a symbolic link is not followed)")
        }
        guard status.st_uid == geteuid() else {
            throw GatewayError.spoolDirectory(path, "it belongs to another user")
        }
        if status.st_mode & 0o777 != 0o700, chmod(path, 0o700) != 0 {
            throw GatewayError.spoolDirectory(
                path,
                "its mode cannot be set to 0700 (\(String(cString: strerror(errno))))"
            )
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        for name in names where name.hasPrefix("body-") && name.hasSuffix(".spool") {
            unlink(path + "/" + name)
        }
    }

    /// A new spool file here.
    func create() throws -> SpoolFile {
        try SpoolFile.create(in: path)
    }
}
