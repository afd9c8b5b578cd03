import ArgumentParser
import OAuthSessionManager
import WireFormat

/// What `accounts add --prompt` asks the authorization server to show (OpenID Connect Core §3.1.2.1).
///
/// One of `login`, `consent` or `select_account`; signing up (`create`) is `--create-account`, which also checks that
/// the server offers it.
struct PromptChoice: ArgumentValue, Hashable {
    var prompt: SignInPrompt

    init(parsing text: String) throws(InvalidArgument) {
        guard let prompt = SignInPrompt(rawValue: text), prompt != .create else {
            let signUp = text == SignInPrompt.create.rawValue ? "; to sign up, use --create-account" : ""
            throw InvalidArgument(
                value: text,
                requirement: "takes login, consent or select_account, not “\(TerminalText.sanitized(text, limit: 80))”"
                    + signUp,
                subject: "--prompt"
            )
        }
        self.prompt = prompt
    }
}
