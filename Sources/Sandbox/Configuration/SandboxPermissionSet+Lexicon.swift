extension SandboxPermissionSet {
    /// The Lexicon schema document: `lexicon: 1`, the `id`, and `defs.main` of type `permission-set`
    /// (atproto.com/specs/lexicon; atproto.com/specs/permission, Permission Sets).
    var lexiconDocument: [String: Any] {
        [
            "lexicon": 1,
            "id": nsid,
            "defs": [
                "main": [
                    "type": "permission-set",
                    "title": title,
                    "detail": detail,
                    "permissions": permissions.map(\.lexiconObject),
                ] as [String: Any]
            ],
        ]
    }

    /// The `at://` URI of the schema record: `at://<publisher>/com.atproto.lexicon.schema/<nsid>`
    /// (atproto.com/specs/lexicon, Lexicon Publication and Resolution).
    var schemaURI: String { "at://\(publisher)/com.atproto.lexicon.schema/\(nsid)" }
}

extension SandboxPermissionSet.Entry {
    /// The `permission` object, with only the parameters that are set.
    var lexiconObject: [String: Any] {
        var object: [String: Any] = ["type": "permission", "resource": resource]
        if !collections.isEmpty { object["collection"] = collections }
        if !actions.isEmpty { object["action"] = actions }
        if !methods.isEmpty { object["lxm"] = methods }
        if let audience { object["aud"] = audience }
        if inheritsAudience { object["inheritAud"] = true }
        if !accept.isEmpty { object["accept"] = accept }
        return object
    }
}
