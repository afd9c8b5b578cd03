package import Foundation

/// The text a test wrote is not a URL.
package struct BadURL: Error, CustomStringConvertible {
    /// The text.
    package let text: String

    package var description: String { "not a URL: \(text)" }
}

/// The URL a test writes as text, failing the test with ``BadURL`` instead of crashing on a typo.
package func url(_ text: String) throws -> URL {
    guard let url = URL(string: text) else { throw BadURL(text: text) }
    return url
}
