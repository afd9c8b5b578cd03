import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The modes and owner of the store's files: directories `0700`, files `0600`, all the user's own, no link in
/// place of a file.
enum StoreFiles {
    /// The finding for a store.
    static func finding(_ store: LocalAccount.Store) -> Finding {
        let (home, keyFile, prefix) =
            switch store {
            case .files(let home, let keyFile): (home, keyFile, "")
            case .database(let description, let home):
                (home, URL?.none, "accounts are in the database \(description); ")
            }
        var problems = problems(under: home)
        if let keyFile { problems += problem(at: keyFile.path, expectDirectory: false).map { [$0] } ?? [] }
        guard problems.isEmpty else {
            return .fail(
                "store-files",
                prefix + problems.prefix(5).joined(separator: "; "),
                rule: Rule.storeFiles,
                fix: "Other users of this machine may read or change the store: fix the modes (chmod 700 on "
                    + "directories, 600 on files) and owner, and sign in again if the store was not yours alone.",
                who: .user
            )
        }
        let key = keyFile.map { " and the key file \($0.path) is 0600" } ?? ""
        return .pass(
            "store-files",
            prefix + "\(home.path) is 0700 with 0600 files, all yours\(key)",
            rule: Rule.storeFiles
        )
    }

    /// Every directory and file under `home` (links not followed) whose mode or owner is wrong.
    static func problems(under home: URL) -> [String] {
        var problems: [String] = []
        if let problem = problem(at: home.path, expectDirectory: true) { return [problem] }
        let names = (try? FileManager.default.subpathsOfDirectory(atPath: home.path)) ?? []
        for name in names.sorted() {
            let path = home.appendingPathComponent(name).path
            if let problem = problem(at: path, expectDirectory: nil) { problems.append(problem) }
        }
        return problems
    }

    /// What is wrong with one entry: `expectDirectory` `nil` takes a directory or a regular file.
    private static func problem(at path: String, expectDirectory: Bool?) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return "\(path) cannot be read" }
        let type = status.st_mode & S_IFMT
        let isDirectory = type == S_IFDIR
        if type == S_IFLNK { return "\(path) is a symbolic link" }
        if let expectDirectory, expectDirectory != isDirectory {
            return "\(path) is not a \(expectDirectory ? "directory" : "regular file")"
        }
        guard isDirectory || type == S_IFREG else { return "\(path) is neither a file nor a directory" }
        if status.st_uid != getuid() { return "\(path) belongs to user \(status.st_uid), not to you" }
        let mode = status.st_mode & 0o777
        if mode & 0o077 != 0 {
            return "\(path) is \(String(mode, radix: 8)), open to others (want \(isDirectory ? "700" : "600"))"
        }
        return nil
    }
}
