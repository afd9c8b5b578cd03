import PostgresNIO

/// The connection of the critical section the current task is in, so the store's reads and writes inside it use
/// that connection and join its transaction.
struct CriticalSection: Sendable {
    /// The store that opened the section; another store's operations ignore it.
    let storeID: ObjectIdentifier
    /// The connection holding the advisory lock and the open transaction.
    let connection: PostgresConnection

    /// The section the current task runs in, if any; child tasks inherit it.
    @TaskLocal static var current: CriticalSection?
}
