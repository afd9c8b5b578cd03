#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Permission bits and file types the store checks, and how it prints them.
package enum FileMode {
    /// The mode of the store directory and every directory it creates.
    static let directory: UInt32 = 0o700
    /// The mode of every file the store creates.
    static let file: UInt32 = 0o600
    /// The group and other permission bits, which must all be clear.
    static let groupOrOther: UInt32 = 0o077

    private static let typeMask: UInt32 = 0o170_000
    private static let directoryType: UInt32 = 0o040_000
    private static let regularType: UInt32 = 0o100_000

    /// Returns the permission bits of `mode` as a four-digit octal string such as `0644`.
    package static func octal(_ mode: UInt32) -> String {
        let digits = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Returns whether `mode` grants any permission to group or others.
    static func isLoose(_ mode: UInt32) -> Bool {
        mode & groupOrOther != 0
    }

    /// Returns whether `mode` describes a directory.
    static func isDirectory(_ mode: UInt32) -> Bool {
        mode & typeMask == directoryType
    }

    /// Returns whether `mode` describes a regular file.
    static func isRegularFile(_ mode: UInt32) -> Bool {
        mode & typeMask == regularType
    }

    /// Names the file type in `mode` for error messages, such as "a FIFO" or "a character device".
    static func kind(_ mode: UInt32) -> String {
        switch mode & typeMask {
        case regularType: "a regular file"
        case directoryType: "a directory"
        case 0o010_000: "a FIFO"
        case 0o020_000: "a character device"
        case 0o060_000: "a block device"
        case 0o120_000: "a symbolic link"
        case 0o140_000: "a socket"
        default: "a special file"
        }
    }

    /// Returns the mode of the file at `path` (following symbolic links), or `nil` when it does not exist.
    static func of(_ path: String) throws -> UInt32? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT { return nil }
            throw KeystoreError.fileSystem("inspect", path: path, errno: code)
        }
        return UInt32(info.st_mode)
    }

    /// Returns the mode of the open file `descriptor`.
    static func of(descriptor: Int32, path: String) throws -> UInt32 {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw KeystoreError.fileSystem("inspect", path: path, errno: errno)
        }
        return UInt32(info.st_mode)
    }
}

/// Turns `errno` values into text for error descriptions.
enum POSIXErrorText {
    /// Returns the system's description of `code`, such as "Permission denied".
    static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

/// Calls `read(2)`; a file-scope function, so that inside types with a `read` method the name still reaches libc.
func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
