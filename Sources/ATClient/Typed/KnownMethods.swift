import ATProtoSyntax

/// The NSIDs of the typed calls, checked once instead of on every call.
enum KnownMethods {
    static let getProfile = known("app.bsky.actor.getProfile")
    static let createRecord = known("com.atproto.repo.createRecord")
    static let deleteRecord = known("com.atproto.repo.deleteRecord")
    static let getRecord = known("com.atproto.repo.getRecord")
    static let listRecords = known("com.atproto.repo.listRecords")
    static let uploadBlob = known("com.atproto.repo.uploadBlob")
    static let getSession = known("com.atproto.server.getSession")

    private static func known(_ text: String) -> NSID {
        // A literal of this file; `KnownMethodsTests` checks every one.
        guard let nsid = try? NSID(validating: text) else { preconditionFailure("\(text) is not an NSID") }
        return nsid
    }
}
