public import Foundation

/// Stores small secret values (sessions, DPoP keys, pending authorizations) under string names.
///
/// Entry names are non-empty strings of at most 200 UTF-8 bytes, such as `session/did:plc:abc234`,
/// `dpop-key/did:plc:abc234`, `pending/<state>` or `accounts`. Other names are rejected with
/// ``KeystoreError/invalidName``.
///
/// Single operations are atomic. A read-modify-write sequence must run inside ``withLock(_:isolation:_:)``
/// so that concurrent tasks and processes do not lose each other's updates.
///
/// The operations are `async` so that a store reached over the network suspends its caller instead of blocking a
/// thread. A store on local files may implement them synchronously; a synchronous method satisfies an `async`
/// requirement, and callers of the concrete type keep calling it without `await`.
public protocol Keystore: Sendable {
    /// Returns the value stored under `name`, or `nil` when there is none.
    func load(_ name: String) async throws -> Data?

    /// Stores `value` under `name`, atomically replacing any previous value.
    func save(_ value: Data, as name: String) async throws

    /// Removes the value stored under `name`; does nothing when there is none.
    func delete(_ name: String) async throws

    /// Returns the names of all stored entries, sorted.
    func names() async throws -> [String]

    /// A cheap token that changes whenever the entry is saved or deleted, by this process or another:
    /// ``EntryRevision/absent`` when there is no such entry, `nil` when the store cannot tell.
    ///
    /// Callers that keep a decoded entry in memory compare revisions instead of decrypting the entry again.
    func revision(of name: String) async throws -> EntryRevision?

    /// Runs `body` while holding an exclusive lock on `name`, shared by all tasks and processes using the store.
    ///
    /// The lock is advisory: it excludes only other callers of `withLock` with the same name. Lock names follow
    /// the rules of entry names but live in their own namespace, so a lock may guard several entries.
    ///
    /// - Parameters:
    ///   - name: The lock's name, usually the name of the entry being updated.
    ///   - isolation: The actor `body` runs on; callers normally leave the default, `#isolation`.
    ///   - body: The critical section.
    /// - Returns: The value `body` returns.
    /// - Throws: What `body` throws, `CancellationError` when the task is cancelled while waiting, or a
    ///   ``KeystoreError`` such as ``KeystoreError/lockTimeout``.
    func withLock<T>(
        _ name: String,
        isolation: isolated (any Actor)?,
        _ body: () async throws -> T
    ) async throws -> T

    /// Makes every write done so far inside the current ``withLock(_:isolation:_:)`` durable before it returns, and
    /// goes on holding the lock.
    ///
    /// A store that runs a critical section as a database transaction commits it here; its writes would otherwise
    /// be undone if the process died before the critical section ended. Stores whose writes are durable at once,
    /// such as the file store, do nothing.
    func checkpoint() async throws
}

/// An opaque token for one version of a keystore entry; compare with `==`.
public struct EntryRevision: Sendable, Hashable {
    let value: [Int64]

    /// Creates a revision from the numbers that identify a version of an entry.
    public init(_ value: [Int64]) { self.value = value }

    /// The revision of an entry that does not exist.
    public static let absent = EntryRevision([])
}

extension Keystore {
    /// Stores that cannot tell cheaply whether an entry changed answer `nil`, and callers read the entry again.
    public func revision(of name: String) throws -> EntryRevision? { nil }

    /// Stores whose every write is durable when it returns have nothing to commit.
    public func checkpoint() async throws {}

    /// Runs `body` while holding an exclusive lock on `name`, on the caller's actor.
    ///
    /// Protocols cannot declare default arguments, so this overload supplies `#isolation` when the store is used
    /// through `any Keystore`.
    ///
    /// - Parameters:
    ///   - name: The lock's name, usually the name of the entry being updated.
    ///   - body: The critical section.
    ///   - isolation: The actor `body` runs on; defaults to the caller's.
    /// - Returns: The value `body` returns.
    /// - Throws: What `body` throws, `CancellationError` when the task is cancelled while waiting, or a
    ///   ``KeystoreError`` such as ``KeystoreError/lockTimeout``.
    public func withLock<T>(
        _ name: String,
        _ body: () async throws -> T,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> T {
        try await withLock(name, isolation: isolation, body)
    }
}
