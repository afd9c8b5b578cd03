import ATProtoPermissions
import ATProtoSyntax
import Foundation

extension PDSHandler {
    /// `com.atproto.server.getSession`: the caller's DID and handle, and its email for an app-password session or a
    /// grant that may read it (`account:email`, `transition:email`), as the reference PDS answers.
    func getSession(_ request: SandboxRequest, _ caller: AuthenticatedCaller) -> SandboxResponse {
        var session: [String: Any] = ["did": caller.account.did, "handle": caller.account.handle, "active": true]
        if caller.isAppPassword || ScopeSet(granted: caller.scope).allowsAccount(attr: .email, action: .read) {
            session["email"] = caller.account.email
            session["emailConfirmed"] = true
        }
        return .json(200, session)
    }

    /// `app.bsky.actor.getProfile`: a minimal profile of any hosted account.
    func getProfile(_ request: SandboxRequest, _ caller: AuthenticatedCaller) throws -> SandboxResponse {
        guard let actor = (try? request.queryParameters())?["actor"], !actor.isEmpty else {
            throw invalid("actor is required")
        }
        guard let account = core.configuration.account(for: actor) else {
            throw invalid("Profile not found: \(actor)")
        }
        var profile: [String: Any] = ["did": account.did, "handle": account.handle]
        if let displayName = account.displayName { profile["displayName"] = displayName }
        return .json(200, profile)
    }

    /// `com.atproto.repo.createRecord`: stores a record in the caller's own repository.
    func createRecord(_ request: SandboxRequest, _ caller: AuthenticatedCaller) async throws -> SandboxResponse {
        let input = try writeInput(request, caller, limit: 1_000_000)
        guard let collection = input["collection"] as? String, NSID.isValid(collection) else {
            throw invalid("collection must be an NSID")
        }
        let record = try typedRecord(input, collection: collection)
        let rkey: String
        if let given = input["rkey"] {
            guard let given = given as? String, XRPCSyntax.isRecordKey(given) else {
                throw invalid("rkey is not a valid record key")
            }
            rkey = given
        } else {
            rkey = await core.repositories.nextRecordKey(now: core.now())
        }
        let created = await core.repositories.create(
            did: caller.account.did,
            collection: collection,
            rkey: rkey,
            record: record
        )
        guard created else {
            throw invalid("a record with rkey \(rkey) already exists")
        }
        let uri = "at://\(caller.account.did)/\(collection)/\(rkey)"
        core.monitor.note(request, "created \(uri)")
        return .json(200, ["uri": uri, "cid": record.cid, "validationStatus": "unknown"])
    }

    /// `com.atproto.repo.putRecord`: creates or replaces a record of the caller's repository, `200` either way, as
    /// at the reference PDS.
    ///
    /// A `swapRecord` of `null` asks that there be no record yet, a CID that the record be that one; otherwise the
    /// write is `400 InvalidSwap` and changes nothing. A record equal to the stored one writes nothing and is not
    /// swap-checked, and the answer then has no `commit`. `swapCommit` is not checked: the sandbox keeps no commits.
    func putRecord(_ request: SandboxRequest, _ caller: AuthenticatedCaller) async throws -> SandboxResponse {
        let input = try writeInput(request, caller, limit: 1_000_000)
        let (collection, rkey) = try recordAddress(input)
        let record = try typedRecord(input, collection: collection)
        let uri = "at://\(caller.account.did)/\(collection)/\(rkey)"
        let outcome = await core.repositories.put(
            did: caller.account.did,
            collection: collection,
            rkey: rkey,
            record: record,
            expecting: try expectation(input)
        )
        switch outcome {
        case .swapFailed(let current):
            throw reject(.invalidXRPCInput, 400, "InvalidSwap", "Record was at \(current ?? "null")")
        case .unchanged:
            return .json(200, ["uri": uri, "cid": record.cid])
        case .done:
            core.monitor.note(request, "put \(uri)")
            return .json(200, ["uri": uri, "cid": record.cid, "validationStatus": "unknown"])
        }
    }

    /// The `record` of a write as stored: its `$type` must be the collection, and is set to it when missing, as the
    /// reference PDS does.
    private func typedRecord(_ input: [String: Any], collection: String) throws -> RepositoryStore.Record {
        guard var record = input["record"] as? [String: Any] else {
            throw invalid("record must be a JSON object")
        }
        if let type = record["$type"] {
            guard type as? String == collection else {
                throw invalid("Invalid $type: expected \(collection), got \(type as? String ?? "a non-string")")
            }
        } else {
            record["$type"] = collection
        }
        guard let value = JSONBody.canonical(record) else {
            throw invalid("record is not valid JSON")
        }
        return RepositoryStore.Record(cid: ContentID.record(value), value: value)
    }

    /// The `collection` and `rkey` a request for one record names, in its JSON body or its query.
    private func recordAddress(_ input: [String: Any]) throws -> (collection: String, rkey: String) {
        guard let collection = input["collection"] as? String, NSID.isValid(collection),
            let rkey = input["rkey"] as? String, XRPCSyntax.isRecordKey(rkey)
        else {
            throw invalid("collection and rkey are required")
        }
        return (collection, rkey)
    }

    /// What a write's `swapRecord` expects of the record it changes.
    private func expectation(_ input: [String: Any]) throws -> RepositoryStore.Expectation {
        switch input["swapRecord"] {
        case nil: return .anything
        case is NSNull: return .absent
        case let cid as String: return .cid(cid)
        default: throw invalid("swapRecord must be a CID or null")
        }
    }

    /// `com.atproto.repo.getRecord`: one record of any hosted repository; a missing one is `400 RecordNotFound`, as
    /// the reference PDS answers it.
    func getRecord(_ request: SandboxRequest, _ caller: AuthenticatedCaller) async throws -> SandboxResponse {
        let parameters = (try? request.queryParameters()) ?? [:]
        let account = try hostedRepo(parameters)
        let (collection, rkey) = try recordAddress(parameters)
        let uri = "at://\(account.did)/\(collection)/\(rkey)"
        guard let record = await core.repositories.record(did: account.did, collection: collection, rkey: rkey),
            parameters["cid"] == nil || parameters["cid"] == record.cid
        else {
            throw reject(.notFound, 400, "RecordNotFound", "Could not locate record: \(uri)")
        }
        return .json(200, ["uri": uri, "cid": record.cid, "value": Self.jsonValue(record.value)])
    }

    /// `com.atproto.repo.listRecords`: a page of a collection, newest record key first unless `reverse=true`.
    func listRecords(_ request: SandboxRequest, _ caller: AuthenticatedCaller) async throws -> SandboxResponse {
        let parameters = (try? request.queryParameters()) ?? [:]
        let account = try hostedRepo(parameters)
        guard let collection = parameters["collection"], NSID.isValid(collection) else {
            throw invalid("collection must be an NSID")
        }
        let limit = parameters["limit"].map { Int($0) ?? 0 } ?? 50
        guard (1...100).contains(limit) else {
            throw invalid("limit must be between 1 and 100")
        }
        let page = await core.repositories.list(
            did: account.did,
            collection: collection,
            limit: limit,
            cursor: parameters["cursor"],
            reverse: parameters["reverse"] == "true"
        )
        let records: [[String: Any]] = page.records.map { entry in
            [
                "uri": "at://\(account.did)/\(collection)/\(entry.rkey)",
                "cid": entry.record.cid,
                "value": Self.jsonValue(entry.record.value),
            ]
        }
        var output: [String: Any] = ["records": records]
        if let cursor = page.cursor { output["cursor"] = cursor }
        return .json(200, output)
    }

    /// `com.atproto.repo.deleteRecord`: deletes a record of the caller's repository (absent records are fine).
    ///
    /// A `swapRecord` must be the CID of the record as it is, or the delete is `400 InvalidSwap` and changes nothing,
    /// as at the reference PDS (a compare-and-swap, so two writers cannot undo each other unseen).
    func deleteRecord(_ request: SandboxRequest, _ caller: AuthenticatedCaller) async throws -> SandboxResponse {
        let input = try writeInput(request, caller, limit: 150 * 1024)
        let (collection, rkey) = try recordAddress(input)
        let outcome = await core.repositories.delete(
            did: caller.account.did,
            collection: collection,
            rkey: rkey,
            expecting: try expectation(input)
        )
        switch outcome {
        case .swapFailed(let current):
            throw reject(
                .invalidXRPCInput,
                400,
                "InvalidSwap",
                "Record was at \(current ?? "null"): nothing was deleted"
            )
        case .done:
            core.monitor.note(request, "deleted at://\(caller.account.did)/\(collection)/\(rkey)")
        case .unchanged:
            break
        }
        return .json(200, [:])
    }

    /// The account of the `repo` parameter of a read, which must be hosted here.
    private func hostedRepo(_ parameters: [String: String]) throws(SandboxRejection) -> SandboxAccount {
        guard let account = parameters["repo"].flatMap(core.configuration.account(for:)) else {
            throw reject(.invalidXRPCInput, 400, "RepoNotFound", "repo is missing or not hosted here")
        }
        return account
    }

    /// The JSON object a write to a repository takes, whose `repo` must be the caller's own.
    ///
    /// An input over `limit` bytes is `413 PayloadTooLarge`, as at the reference PDS (1,000,000 bytes for
    /// `createRecord`, 150 KiB for a method that sets no limit of its own).
    private func writeInput(
        _ request: SandboxRequest,
        _ caller: AuthenticatedCaller,
        limit: Int
    ) throws -> [String: Any] {
        guard request.body.count <= limit else {
            throw reject(.invalidXRPCInput, 413, "PayloadTooLarge", "the input is over \(limit) bytes")
        }
        guard request.mediaType == "application/json", let input = JSONBody.decodeObject(request.body) else {
            throw invalid("the body must be a JSON object")
        }
        guard let repo = input["repo"] as? String else { throw invalid("repo is required") }
        guard isCaller(repo, caller) else {
            // The reference PDS answers a write to another repository as one it is not authorized for.
            throw reject(.invalidXRPCInput, 401, "AuthRequired", "repo must be the caller's DID or handle")
        }
        return input
    }

    /// `com.atproto.repo.uploadBlob`: takes raw bytes of any type, keeps them for `com.atproto.sync.getBlob`, and
    /// answers a blob reference.
    ///
    /// The bytes are kept in memory within ``RepositoryStore``'s budget, the oldest blobs dropped first.
    func uploadBlob(_ request: SandboxRequest, _ caller: AuthenticatedCaller) async throws -> SandboxResponse {
        guard !request.body.isEmpty else {
            throw invalid("the blob is empty")
        }
        let mimeType = request.header("content-type") ?? "application/octet-stream"
        let blob = RepositoryStore.Blob(cid: ContentID.blob(request.body), mimeType: mimeType, bytes: request.body)
        let dropped = await core.repositories.addBlob(did: caller.account.did, blob: blob)
        core.monitor.count { $0.blobsStored += 1 }
        if dropped > 0 {
            let store = core.repositories
            let budget = "\(store.maximumBlobBytes) bytes and \(store.maximumBlobCount) blobs"
            core.monitor.note(request, "dropped the \(dropped) oldest blob(s) to stay within \(budget)")
        }
        return .json(
            200,
            [
                "blob": [
                    "$type": "blob",
                    "ref": ["$link": blob.cid],
                    "mimeType": blob.mimeType,
                    "size": blob.size,
                ] as [String: Any]
            ]
        )
    }

    private func isCaller(_ repo: String, _ caller: AuthenticatedCaller) -> Bool {
        repo == caller.account.did || repo.lowercased() == caller.account.handle
    }

    private static func jsonValue(_ data: Data) -> Any {
        (try? JSONSerialization.jsonObject(with: data)) ?? [String: Any]()
    }
}
