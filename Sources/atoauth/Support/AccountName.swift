import ATProtoSyntax

/// How an account the user typed is read: a handle (any case, with or without a leading `@`) or a DID.
enum AccountName {
    /// The identifier `text` names, read strictly: a leading `@` is dropped, and anything else that is no handle or
    /// DID throws `SyntaxError`.
    static func parse(_ text: String) throws -> ATIdentifier {
        try ATIdentifier(typed: text)
    }

    /// The signed-in account `text` names; text that is no handle or DID names no signed-in account, which is what
    /// the user is told (exit 3, as for any other unknown account).
    static func identifier(_ text: String) throws -> ATIdentifier {
        try AccountArgument(parsing: text).identifier()
    }

    /// The identifier `text` names, or `nil` for no text.
    static func identifier(_ text: String?) throws -> ATIdentifier? {
        try text.map { try identifier($0) }
    }
}
