import ATProtoPermissions
import Testing

@Suite("Permission scopes follow the reference vectors")
struct PermissionVectorTests {
    @Test(
        "every valid scope in the vectors parses, and its canonical form parses back to the same permission",
        arguments: try PermissionVectors.values("permission_scopes_valid.txt")
    )
    func valid(_ token: String) throws {
        let permission = try Permission(parsing: token)
        let canonical = permission.description
        #expect(try Permission(parsing: canonical) == permission)
        #expect(try Permission(parsing: canonical).description == canonical)
    }

    @Test(
        "every invalid scope in the vectors is refused, and a grant keeps it as unrecognized",
        arguments: try PermissionVectors.values("permission_scopes_invalid.txt")
    )
    func invalid(_ token: String) {
        #expect(throws: PermissionError.self) { try Permission(parsing: token) }
        let granted = ScopeSet(granted: token)
        #expect(granted.permissions.isEmpty)
        #expect(!granted.isFullyUnderstood)
    }

    @Test("the vector files are found and not empty")
    func filesAreRead() throws {
        #expect(try PermissionVectors.values("permission_scopes_valid.txt").count >= 60)
        #expect(try PermissionVectors.values("permission_scopes_invalid.txt").count >= 100)
    }
}
