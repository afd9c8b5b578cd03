/// One way a client metadata document breaks a rule: the member, what is wrong with it, and where the rule is stated
/// (an RFC section, an atproto.com/specs/oauth section, or the reference authorization server's behaviour).
///
/// The text quotes the document's values made safe for a terminal, and never a private key's value: a key that holds
/// one is named by its position and `kid` only.
package struct ClientMetadataProblem: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The document's member, such as `redirect_uris`, or `document` for the document as a whole.
    package var field: String
    /// What is wrong, in words.
    package var problem: String
    /// Where the rule is stated.
    package var rule: String

    /// `<field>: <problem> [<rule>]`.
    package var description: String { "\(field): \(problem) [\(rule)]" }
}
