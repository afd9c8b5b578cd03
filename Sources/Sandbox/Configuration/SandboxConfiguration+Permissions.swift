import ATProtoPermissions

extension SandboxConfiguration {
    /// Why `token` is not one valid permission scope token, in one sentence; `nil` when it is
    /// (atproto.com/specs/permission, Scope String Syntax).
    ///
    /// For checking ``withheldPermissions`` before they are set, such as command-line options.
    public static func permissionProblem(_ token: String) -> String? {
        guard !token.isEmpty, !token.contains(" ") else {
            return "“\(token)” is not one scope token: it is empty or has spaces."
        }
        do {
            _ = try Permission(parsing: token)
            return nil
        } catch {
            return error.description
        }
    }

    /// The permission set with this NSID, if the sandbox has one.
    func permissionSet(_ nsid: String) -> SandboxPermissionSet? {
        permissionSets.first { $0.nsid == nsid }
    }
}
