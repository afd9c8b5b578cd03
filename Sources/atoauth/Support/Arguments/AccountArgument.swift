import ATProtoSyntax
import AccountManager
import ArgumentParser

/// A signed-in account as a command takes it: a handle (any case, with or without a leading `@`) or a DID, read
/// strictly by `ATIdentifier(typed:)`.
///
/// Never refused while parsing: text that is no handle or DID names no signed-in account, which is what the command
/// says when it looks the account up (exit 3, as for any other unknown account).
struct AccountArgument: ArgumentValue, Hashable, CustomStringConvertible {
    /// The text as given, for messages and suggestions.
    var text: String
    /// The handle or DID the text names, or `nil` when it names none.
    var parsed: ATIdentifier?

    var description: String { text }

    init(parsing text: String) {
        self.text = text
        parsed = try? ATIdentifier(typed: text)
    }

    /// The handle or DID.
    ///
    /// - Throws: `AccountError.noSuchAccount` when the text is no handle or DID.
    func identifier() throws -> ATIdentifier {
        guard let parsed else { throw AccountError.noSuchAccount(text) }
        return parsed
    }
}
