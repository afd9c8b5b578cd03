import ATProtoPermissions
import ArgumentParser

/// Permissions as `--scope` takes them (`repo:app.bsky.feed.post?action=create`; several separated by spaces), read
/// by the rules of ATProtoPermissions for a requested scope.
struct PermissionList: ArgumentValue, Hashable {
    var scope: ScopeSet

    init(parsing text: String) throws(InvalidArgument) {
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
