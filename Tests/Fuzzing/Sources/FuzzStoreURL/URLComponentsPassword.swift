import Foundation

/// The password a URL's authority holds, percent-decoded, as a reader of the URL would find it.
enum URLComponentsPassword {
    static func of(_ text: String) -> String? {
        URLComponents(string: text)?.password
    }
}
