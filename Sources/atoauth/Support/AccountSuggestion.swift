import ATProtoSyntax
import AccountManager
import Foundation

/// "Did you mean …?" for an account name that matches no signed-in account: the signed-in account the user probably
/// meant, rather than a sign-in for the name as typed.
enum AccountSuggestion {
    /// The failure to report for `error`, where no signed-in account has the name given.
    ///
    /// It names the signed-in account that is closest to the name, when one is, and says when the name came from
    /// `ATOAUTH_ACCOUNT`. When `removing`, no sign-in is advised (there is nothing to remove) and the status is 1,
    /// the operation failed.
    static func failure(for error: AccountError, context: CLIContext, removing: Bool = false) async -> CLIFailure {
        var failure = CLIFailure(error)
        guard let typed = error.account else { return failure }
        let fromEnvironment = context.settings.accountFromEnvironment && context.settings.account == typed
        let names = ((try? await context.accounts.accountListing().accounts) ?? []).map(\.displayName)
        var message = "No signed-in account is \(typed)"
        if fromEnvironment { message += " (the name comes from \(GlobalOption.account.variable ?? "ATOAUTH_ACCOUNT"))" }
        message += removing ? ", so nothing was removed." : "."
        let listing = "`atoauth accounts list` shows the accounts signed in here."
        if let match = closest(to: typed, in: names) {
            message += " Did you mean \(match)? " + listing
        } else {
            message += " " + (removing ? listing : RemedyText.text(for: error.remedy))
        }
        failure.message = message
        if removing { failure.status = .failed }
        return failure
    }

    /// The signed-in name `typed` most probably means: the only handle whose first label it is (`alice` for
    /// `alice.bsky.social`), the only one it starts, or the closest within two edits; `nil` when none or several
    /// fit equally.
    static func closest(to typed: String, in names: [String]) -> String? {
        let typed = ATIdentifier.withoutAtSign(typed).lowercased()
        let lowered = names.map { ($0, $0.lowercased()) }
        let byFirstLabel = lowered.filter { $0.1.split(separator: ".").first.map(String.init) == typed }
        if byFirstLabel.count == 1 { return byFirstLabel[0].0 }
        let byPrefix = lowered.filter { $0.1.hasPrefix(typed) && typed.count >= 3 }
        if byPrefix.count == 1 { return byPrefix[0].0 }
        let distances = lowered.map { ($0.0, EditDistance.between(typed, $0.1)) }.filter { $0.1 <= 2 }
        guard let best = distances.min(by: { $0.1 < $1.1 }) else { return nil }
        return distances.filter { $0.1 == best.1 }.count == 1 ? best.0 : nil
    }
}
