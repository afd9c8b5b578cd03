import ArgumentParser
import Foundation
import HTTPTransport

/// An `http` or `https` URL with a host and a port in 1–65535: `--plc-directory`, `--handle-resolver`,
/// `--client-id`, `--redirect-uri`.
struct HTTPURL: ArgumentValue, Hashable {
    var url: URL

    init(parsing text: String) throws(InvalidArgument) {
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme),
            url.host != nil, url.hasUsablePort
        else { throw InvalidArgument(value: text, requirement: "needs an http(s) URL with a port in 1–65535") }
        self.url = url
    }
}
