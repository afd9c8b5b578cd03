import ATClient
import ATProtoPermissions
import ATProtoSyntax
import ArgumentParser
import Foundation
import HTTPTransport
import WireFormat

/// The header fields `xrpc --header` and `--proxy` add, checked before anything is sent.
struct XRPCHeaderOptions {
    /// The extra fields, in the order given.
    var headers: HTTPHeaders = [:]
    /// The `atproto-proxy` service (atproto.com/specs/xrpc, Service Proxying), from `--proxy` or
    /// `--header atproto-proxy:…`; `nil` for the default of the NSID.
    var proxy: String?

    /// Checks every `--header NAME:VALUE` and the `--proxy DID#SERVICE`.
    ///
    /// - Throws: `ValidationError` naming the header or proxy that cannot be sent.
    init(headers arguments: [String], proxy: String?) throws {
        if let proxy { self.proxy = try Self.service(proxy, option: "--proxy") }
        for argument in arguments {
            guard let colon = argument.firstIndex(of: ":") else {
                throw ValidationError(
                    "--header takes NAME:VALUE, such as atproto-accept-labelers:did:plc:ar7c4by46qjdydhdevvrndac; "
                        + "“\(Self.shown(argument))” has no colon."
                )
            }
            let name = String(argument[..<colon])
            let value = argument[argument.index(after: colon)...].trimmingCharacters(in: [" ", "\t"])
            try Self.check(name: name, value: value)
            if name.lowercased() == "atproto-proxy" {
                guard self.proxy == nil else {
                    throw ValidationError("atproto-proxy is given twice (--proxy or --header); give it once.")
                }
                self.proxy = try Self.service(value, option: "--header atproto-proxy")
            } else {
                headers.add(name: name, value: value)
            }
        }
    }

    /// A name is a token (RFC 9110 §5.1) the client does not set itself; a value is printable ASCII, so no line
    /// break can start another field (RFC 9110 §5.5).
    private static func check(name: String, value: String) throws {
        guard MediaType.isToken(name) else {
            throw ValidationError(
                "--header: “\(shown(name))” is not a header name (letters, digits and !#$%&'*+-.^_`|~ only)."
            )
        }
        let lowercased = name.lowercased()
        if lowercased == "content-type" {
            throw ValidationError("--header cannot set Content-Type; give --content-type TYPE with --input.")
        }
        if ["authorization", "dpop"].contains(lowercased) {
            throw ValidationError(
                "--header cannot set \(name): atoauth sends the session's DPoP-bound token and a fresh DPoP proof."
            )
        }
        if lowercased != "atproto-proxy", ATClient.reservedHeaders.contains(lowercased) {
            throw ValidationError("--header cannot set \(name): the HTTP client sets it.")
        }
        guard value.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) || $0 == "\t" }) else {
            throw ValidationError(
                "--header \(name): the value may hold only printable ASCII, no line break or other control character."
            )
        }
    }

    /// `DID#SERVICE`, checked with the DID syntax rules (atproto.com/specs/did).
    private static func service(_ text: String, option: String) throws -> String {
        if let reference = ServiceReference(rawValue: text) { return reference.rawValue }
        let parts = text.split(separator: "#", omittingEmptySubsequences: false)
        let example = "such as did:web:api.bsky.app#bsky_appview"
        guard parts.count == 2 else {
            throw ValidationError("\(option) takes DID#SERVICE, \(example); “\(shown(text))” is not that.")
        }
        do {
            _ = try DID(validating: String(parts[0]))
        } catch let error as SyntaxError {
            throw ValidationError("\(option): invalid DID \(error.reason). It takes DID#SERVICE, \(example).")
        }
        throw ValidationError(
            "\(option): “\(shown(String(parts[1])))” is not a service ID (the part after #, \(example))."
        )
    }

    private static func shown(_ text: String) -> String {
        TerminalText.sanitized(text, limit: 120)
    }
}
