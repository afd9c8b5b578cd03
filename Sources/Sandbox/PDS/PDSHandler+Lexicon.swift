import ATProtoSyntax

extension PDSHandler {
    /// `com.atproto.lexicon.resolveLexicon`: the schema of a permission set the sandbox publishes, without
    /// authentication, as `{"uri": "at://<publisher>/com.atproto.lexicon.schema/<nsid>", "schema": {…}}`
    /// (atproto.com/specs/lexicon, Lexicon Publication and Resolution).
    func resolveLexicon(_ request: SandboxRequest) throws(SandboxRejection) -> SandboxResponse {
        guard let nsid = (try? request.queryParameters())?["nsid"], NSID.isValid(nsid) else {
            throw invalid("nsid is required and must be an NSID")
        }
        guard let set = core.configuration.permissionSet(nsid) else {
            throw reject(.notFound, 404, "LexiconNotFound", "No lexicon found for NSID: \(nsid)")
        }
        return .json(200, ["uri": set.schemaURI, "schema": set.lexiconDocument])
    }
}
