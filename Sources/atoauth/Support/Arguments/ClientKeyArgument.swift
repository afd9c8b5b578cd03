import ArgumentParser
import Foundation
import OAuthMetadata

/// What `--client-key` takes: a private key file, or the `kid` of a key in the store's client key set; decided once,
/// here.
///
/// Text that names no file must be a `kid` atoauth accepts (``ClientKey/isAcceptableKeyID(_:)``), so a mistyped path
/// is refused while the command line is read, naming the rule, before anything is sent.
enum ClientKeyArgument: ArgumentValue, Hashable {
    /// A key file, its path with `~` expanded.
    case file(path: String)
    /// The `kid` of a key already in the store.
    case keyID(String)

    init(parsing text: String) throws(InvalidArgument) {
        let path = (text as NSString).expandingTildeInPath
        if FileManager.default.fileExists(atPath: path) {
            self = .file(path: path)
            return
        }
        guard ClientKey.isAcceptableKeyID(text) else {
            throw InvalidArgument(
                value: text,
                requirement: "names no file, and a kid is 1 to \(ClientKey.maximumKeyIDLength) characters of A–Z, "
                    + "a–z, 0–9 and . _ ~ : + = - (no space, control character or line break)"
            )
        }
        self = .keyID(text)
    }
}
