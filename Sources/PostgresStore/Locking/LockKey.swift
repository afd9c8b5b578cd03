/// How lock names become PostgreSQL advisory lock keys: `hashtextextended(name, seed)`, a 64-bit hash computed by
/// the server, so every process and every version of atoauth agrees on it (postgresql.org/docs/current/
/// explicit-locking.html, 13.3.5).
///
/// The seed keeps atoauth's keys apart from those of other applications that hash their own names.
enum LockKey {
    /// The seed of atoauth's lock keys: "atoa" in ASCII.
    static let seed: Int64 = 0x6174_6f61
}
