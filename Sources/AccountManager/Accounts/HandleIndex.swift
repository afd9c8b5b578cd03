import ATProtoSyntax
import Foundation
import Keystore

/// Which DID each signed-in handle belongs to, kept encrypted in the store, so that naming an account by handle
/// decrypts that account's session only, not every session.
///
/// A hint, never trusted alone: the session it points to must carry the handle, else the accounts are listed (which
/// writes the index again). Written by every listing whose handles differ from it and by every sign-in; a failure to
/// read or write it only costs a listing. Decrypted again only when its entry changed since the last read.
final class HandleIndex: Sendable {
    static let entry = "accounts/handles"
    let keystore: any Keystore
    private let lastRead = RevisionCache()

    init(keystore: any Keystore) {
        self.keystore = keystore
    }

    /// The DID the index gives for `handle`, if any.
    func did(for handle: Handle) async -> DID? {
        guard let text = await read()[handle.rawValue] else { return nil }
        return try? DID(validating: text)
    }

    /// Writes the handles of `accounts`, the whole list of readable sessions, unless the index already says so; the
    /// handles it gives the `unreadable` sessions stay, so that a damaged account is still found, and named
    /// damaged, by its handle.
    func record(_ accounts: [Account], keepingHandlesOf unreadable: [DID]) async {
        let recorded = await read()
        let damaged = Set(unreadable.map(\.rawValue))
        var handles = recorded.filter { damaged.contains($0.value) }
        for account in accounts {
            if let handle = account.handle { handles[handle.rawValue] = account.did.rawValue }
        }
        if recorded != handles { await write(handles) }
    }

    /// Adds a newly signed-in account's handle, under the index's lock (another process may add one meanwhile).
    func add(_ handle: Handle?, of did: DID) async {
        guard let handle else { return }
        try? await keystore.withLock(Self.entry) {
            var handles = await read()
            guard handles[handle.rawValue] != did.rawValue else { return }
            handles[handle.rawValue] = did.rawValue
            await write(handles)
        }
    }

    /// Drops the handles of a removed account; the entry goes with the last one.
    func remove(_ did: DID) async {
        try? await keystore.withLock(Self.entry) {
            var handles = await read()
            guard handles.values.contains(did.rawValue) else { return }
            handles = handles.filter { $0.value != did.rawValue }
            if handles.isEmpty {
                try? await keystore.delete(Self.entry)
            } else {
                await write(handles)
            }
        }
    }

    private func read() async -> [String: String] {
        let handles: [String: String]? = try? await lastRead.value(of: Self.entry, in: keystore) {
            guard let data = try await keystore.load(Self.entry) else { return [:] }
            return (try? JSONDecoder().decode([String: String].self, from: data)) ?? [:]
        }
        return handles ?? [:]
    }

    private func write(_ handles: [String: String]) async {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let data = try? encoder.encode(handles) else { return }
        try? await keystore.save(data, as: Self.entry)
    }
}
