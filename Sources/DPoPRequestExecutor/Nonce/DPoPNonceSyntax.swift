/// What a server's `DPoP-Nonce` may be: `1*NQCHAR` (RFC 9449 §8), at most ``maximumLength`` bytes.
///
/// A nonce goes into every proof and into the nonce file; one that is huge or holds characters the syntax forbids
/// is ignored, as if the server had sent none.
public enum DPoPNonceSyntax {
    /// The longest nonce kept: real servers send 20–50 characters, and the cap keeps a hostile one out of every proof.
    public static let maximumLength = 1024

    /// Whether `nonce` is a non-empty run of `NQCHAR` (`%x21 / %x23-5B / %x5D-7E`) of at most 1024 bytes.
    public static func isValid(_ nonce: String) -> Bool {
        let bytes = nonce.utf8
        return !bytes.isEmpty && bytes.count <= maximumLength
            && bytes.allSatisfy { $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) }
    }
}
