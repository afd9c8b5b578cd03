import Foundation

/// Media types for `xrpc --input` and `--content-type` (RFC 9110 §8.3.1).
enum MediaType {
    static let json = "application/json"
    static let octetStream = "application/octet-stream"

    /// The type a file's extension implies, for the kinds of files a PDS takes as blobs; `nil` when unknown.
    static func forExtension(_ fileExtension: String) -> String? {
        byExtension[fileExtension.lowercased()]
    }

    private static let byExtension: [String: String] = [
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
        "avif": "image/avif", "heic": "image/heic", "heif": "image/heif", "bmp": "image/bmp", "svg": "image/svg+xml",
        "tif": "image/tiff", "tiff": "image/tiff", "mp4": "video/mp4", "m4v": "video/mp4", "mov": "video/quicktime",
        "webm": "video/webm", "mpeg": "video/mpeg", "mpg": "video/mpeg", "mp3": "audio/mpeg", "m4a": "audio/mp4",
        "ogg": "audio/ogg", "wav": "audio/wav", "json": json, "txt": "text/plain", "md": "text/markdown",
        "html": "text/html", "pdf": "application/pdf", "car": "application/vnd.ipld.car",
    ]

    /// Whether `text` is a media type: `type/subtype` of token characters, then optional `; name=value`
    /// parameters of printable ASCII.
    static func isValid(_ text: String) -> Bool {
        let parts = text.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
        let essence = parts[0].trimmingCharacters(in: .whitespaces).split(
            separator: "/",
            omittingEmptySubsequences: false
        )
        guard essence.count == 2, essence.allSatisfy(isToken) else { return false }
        guard parts.count == 2 else { return true }
        return parts[1].unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) }
    }

    /// A token (RFC 9110 §5.6.2): one or more letters, digits and ``tokenSymbols``.
    static func isToken(_ text: some StringProtocol) -> Bool {
        !text.isEmpty
            && text.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || tokenSymbols.contains($0))
            }
    }

    private static let tokenSymbols = Set("!#$%&'*+-.^_`|~0123456789".unicodeScalars)
}
