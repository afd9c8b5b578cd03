/// Advice for an HTTP status that puts the fault with the server, not the request: the same request may succeed
/// later (RFC 9110 §15.6; RFC 6585 §4).
package enum ServerTrouble {
    /// A sentence for a 5xx or a 429 (the server limits how often it is asked); `nil` for any other status.
    package static func advice(forStatus status: Int?) -> String? {
        switch status {
        case 429: "The server is limiting how often it is asked; try again later."
        case .some(500...599): "The server had a problem; try again later."
        default: nil
        }
    }
}
