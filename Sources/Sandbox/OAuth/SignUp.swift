import ATProtoSyntax
import Foundation
import WireFormat

/// Sign-up through the authorization request (`prompt=create`, OpenID Connect Prompt Create §4).
///
/// A page asks for a handle, or in auto-approve mode a new account is made at once. The account is a full sandbox
/// account from then on: the PLC directory serves its DID document, the PDS its handle, repository and app password.
enum SignUp {
    /// The `prompt` values the sandbox honours: `login`, `consent` and `select_account` show the consent page (or
    /// approve at once in auto-approve mode), as every request does; `create` signs up.
    static let promptValues = ["login", "consent", "select_account", "create"]

    /// Whether `handle` can be signed up: a valid handle (atproto.com/specs/handle) under `.test` that no account
    /// has.
    static func isAvailable(_ handle: String, in core: SandboxCore) -> Bool {
        handle.hasSuffix(".test") && Handle.isValid(handle) && core.configuration.account(for: handle) == nil
    }

    /// Adds an account with `handle`, or with the first free `newN.test` when `nil`, and returns it.
    static func createAccount(handle: String?, in core: SandboxCore) -> SandboxAccount {
        core.updateConfiguration { configuration in
            var name = handle ?? ""
            var number = configuration.accounts.count
            while name.isEmpty || configuration.account(for: name) != nil {
                number += 1
                name = "new\(number).test"
            }
            let account = SandboxAccount(handle: name)
            configuration.accounts.append(account)
            return account
        }
    }

    /// The sign-up page: a handle field, then the same Create or Deny choice as the consent page.
    static func page(request: PushedAuthorization, csrfToken: String) -> String {
        ConsentPage.document(
            title: "Create an account",
            body: """
                <h1>Create an account</h1>
                \(ConsentPage.clientIntroduction(request, asks: "asks you to sign up, then to use the new account."))
                <form method="post" action="/oauth/authorize">
                <input type="hidden" name="csrf_token" value="\(HTMLText.escaped(csrfToken))">
                <p><label for="handle">Handle:</label> <input id="handle" name="handle" value="carol.test"></p>
                <p>Permissions it asks for:</p>\(ConsentPage.permissionList(request.scope))
                <button type="submit" id="approve" name="decision" value="create">Create and approve</button>
                <button type="submit" id="deny" name="decision" value="deny">Deny</button>
                </form>
                """
        )
    }
}
