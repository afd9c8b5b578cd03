import ArgumentParser
import HTTPTransport

/// The header fields `xrpc --header` and `--proxy` add, each checked as it was parsed (``HeaderField``,
/// ``ProxyService``).
struct XRPCHeaderOptions {
    /// The extra fields, in the order given.
    var headers: HTTPHeaders = [:]
    /// The `atproto-proxy` service (atproto.com/specs/xrpc, Service Proxying), from `--proxy` or
    /// `--header atproto-proxy:…`; `nil` for the default of the NSID.
    var proxy: String?

    /// The fields and the proxy of `--header` and `--proxy`.
    ///
    /// - Throws: `ValidationError` when the proxy is given twice.
    init(headers fields: [HeaderField], proxy: ProxyService?) throws {
        self.proxy = proxy?.rawValue
        for field in fields {
            guard field.isProxy else {
                headers.add(name: field.name, value: field.value)
                continue
            }
            guard self.proxy == nil else {
                throw ValidationError("atproto-proxy is given twice (--proxy or --header); give it once.")
            }
            self.proxy = field.value
        }
    }
}
