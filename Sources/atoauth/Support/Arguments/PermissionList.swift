import ATProtoPermissions
import ArgumentParser

/// Permissions as `--scope` takes them (`repo:app.bsky.feed.post?action=create`; several separated by spaces), read
/// by the rules of ATProtoPermissions for a requested scope.
struct PermissionList: ArgumentValue, Hashable, CustomStringConvertible {
    /// The permissions.
    var scope: ScopeSet
    /// The text as given, which a sign-in requests as it is.
    var text: String

    var description: String { text }

    init(parsing text: String) throws(InvalidArgument) {
        self.text = text
        do {
            scope = try ScopeSet(requested: text)
        } catch {
            throw InvalidArgument(
                value: text,
                requirement: "\(error.description) \(PermissionHelp.examples.dropLast())",
                subject: "--scope:"
            )
        }
    }
}
