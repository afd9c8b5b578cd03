/// The table that holds an entry, and the entry's key in it.
///
/// Each kind of entry the atoauth modules write has its own table, keyed by what follows the prefix of its name: a
/// session, a DPoP key or a refresh note by the account's DID, a pending sign-in by its `state`, the active account by
/// `active`. Any other name lives in `atoauth_entries` under its full name. Every table has the same columns:
/// the key, the sealed value, its revision (from one sequence, so it changes with every write), and when it was
/// written.
struct EntryTable: Sendable, Hashable {
    /// The table's name.
    let name: String
    /// The name of the key column.
    let keyColumn: String
    /// The prefix of the entry names of this table, before the key; empty for `atoauth_entries`.
    let prefix: String
    /// The one key this table accepts, or `nil` for any.
    let onlyKey: String?

    static let sessions = EntryTable(name: "atoauth_sessions", keyColumn: "did", prefix: "session/", onlyKey: nil)
    static let dpopKeys = EntryTable(name: "atoauth_dpop_keys", keyColumn: "did", prefix: "dpop-key/", onlyKey: nil)
    static let refreshNotes = EntryTable(
        name: "atoauth_refresh_notes",
        keyColumn: "did",
        prefix: "refreshing/",
        onlyKey: nil
    )
    static let pendingSignIns = EntryTable(
        name: "atoauth_pending_sign_ins",
        keyColumn: "state",
        prefix: "pending/",
        onlyKey: nil
    )
    static let activeAccount = EntryTable(
        name: "atoauth_active_account",
        keyColumn: "slot",
        prefix: "accounts/",
        onlyKey: "active"
    )
    static let entries = EntryTable(name: "atoauth_entries", keyColumn: "name", prefix: "", onlyKey: nil)

    /// Every table, `atoauth_entries` last.
    static let all: [EntryTable] = [.sessions, .dpopKeys, .refreshNotes, .pendingSignIns, .activeAccount, .entries]

    /// The table and key of the entry `name`.
    static func locate(_ name: String) -> (table: EntryTable, key: String) {
        for table in all where !table.prefix.isEmpty && name.hasPrefix(table.prefix) {
            let key = String(name.dropFirst(table.prefix.count))
            if table.onlyKey == nil || table.onlyKey == key { return (table, key) }
        }
        return (.entries, name)
    }

    /// The entry name of `key` in this table.
    func entryName(_ key: String) -> String { prefix + key }

    /// The statement creating the table.
    var creation: String {
        """
        CREATE TABLE \(name) (
            \(keyColumn) text PRIMARY KEY,
            sealed bytea NOT NULL,
            revision bigint NOT NULL,
            written_at timestamptz NOT NULL DEFAULT now()
        )
        """
    }
}
