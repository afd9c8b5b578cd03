import ATProtoSyntax
import AccountManager

/// How an account the user typed is read: a handle (any case, with or without a leading `@`) or a DID.
enum AccountName {
    /// The identifier `text` names; text that is no handle or DID names no signed-in account, which is what the
    /// user is told (exit 3, as for any other unknown account).
    static func identifier(_ text: String) throws -> ATIdentifier {
        let name = text.hasPrefix("@") ? String(text.dropFirst()) : text
        guard let identifier = try? ATIdentifier(validating: name) else { throw AccountError.noSuchAccount(text) }
        return identifier
    }

    /// The identifier `text` names, or `nil` for no text.
    static func identifier(_ text: String?) throws -> ATIdentifier? {
        try text.map { try identifier($0) }
    }
}
