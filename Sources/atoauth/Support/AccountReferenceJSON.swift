import ATProtoSyntax
import AccountManager

/// An account named inside a JSON answer: its DID, and its handle when it has one (`handle` is left out when not).
///
/// `gateway token list`'s `accounts` and `accounts remove`'s `activeAccount` (docs/cli.md).
struct AccountReferenceJSON: Encodable {
    var did: String
    var handle: String?
}

extension AccountReferenceJSON {
    /// The reference to `account`.
    init(_ account: Account) {
        self.init(did: account.did.rawValue, handle: account.handle?.description)
    }
}
