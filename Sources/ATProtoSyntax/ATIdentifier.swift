/// A handle or a DID, as the `at-identifier` string format allows (atproto.com/specs/lexicon).
public enum ATIdentifier: Sendable, Hashable, CustomStringConvertible {
    /// A handle, normalized to lowercase.
    case handle(Handle)
    /// A DID.
    case did(DID)

    /// Reads text starting with `did:` as a DID and anything else as a handle; throws
    /// ``SyntaxError`` when it is neither.
    public init(validating text: String) throws {
        if text.hasPrefix("did:") {
            guard DID.isValid(text) else {
                throw SyntaxError(.atIdentifier, text, "it starts with “did:” but is not a valid DID")
            }
            self = .did(try DID(validating: text))
        } else {
            guard Handle.isValid(text) else {
                throw SyntaxError(.atIdentifier, text, "it is neither a valid handle nor a DID")
            }
            self = .handle(try Handle(validating: text))
        }
    }

    /// Reads a handle or a DID as people write it, where a handle may carry a leading `@` (`@alice.bsky.social`);
    /// throws ``SyntaxError`` when what follows is neither.
    public init(typed text: String) throws {
        try self.init(validating: Self.withoutAtSign(text))
    }

    /// `text` without the one leading `@` people write before a handle.
    public static func withoutAtSign(_ text: String) -> String {
        text.hasPrefix("@") ? String(text.dropFirst()) : text
    }

    /// Whether the text is a valid handle or DID.
    public static func isValid(_ text: String) -> Bool {
        text.hasPrefix("did:") ? DID.isValid(text) : Handle.isValid(text)
    }

    /// The handle or the DID as text.
    public var description: String {
        switch self {
        case .handle(let handle): handle.rawValue
        case .did(let did): did.rawValue
        }
    }
}

extension ATIdentifier {
    /// The DID, when the identifier is one.
    public var did: DID? {
        guard case .did(let did) = self else { return nil }
        return did
    }

    /// Whether the identifier names the account with `did` and `handle`: its DID exactly, or its handle (both are
    /// lowercase, so any case the user typed matches).
    public func names(did: DID, handle: Handle?) -> Bool {
        switch self {
        case .did(let named): named == did
        case .handle(let named): named == handle
        }
    }
}

extension ATIdentifier: ExpressibleByStringLiteral {
    /// A handle or DID written in the source, such as `"alice.bsky.social"`; a literal that is neither stops the
    /// program, since it is a mistake in the code, not in anything a user typed.
    public init(stringLiteral text: String) {
        do {
            try self.init(validating: text)
        } catch {
            preconditionFailure("\(error)")
        }
    }
}
