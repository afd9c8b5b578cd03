import WireFormat

extension ConsentPage {
    /// The page for an authorization page opened again: its `request_uri` was used, expired, or is not known.
    ///
    /// It says so in plain words and sends the person back to the application to start again, linking to the
    /// client's `client_uri` when its document has one that passed ``ClientPresentation``'s checks; never to the
    /// redirect URI, which a request that cannot be checked any more does not vouch for. `detail` is the technical
    /// reason, shown small for developers.
    static func spentRequestPage(
        _ reason: AuthorizationStore.RequestURIRefusal.Reason,
        client: ClientPresentation,
        detail: String
    ) -> String {
        let heading: String
        let explanation: String
        switch reason {
        case .used:
            heading = "This sign-in page was already used"
            explanation =
                "Each sign-in page works only once, and this one was opened before (perhaps it was reloaded, "
                + "or reached with the Back button)."
        case .expired:
            heading = "This sign-in page has expired"
            explanation = "A sign-in page works only for a few minutes after the application opens it."
        case .clientMismatch:
            heading = "This sign-in page belongs to another application"
            explanation = "Its address was opened for another application, so it no longer works."
        case .unknown:
            heading = "This sign-in page is not known"
            explanation = "It may have been used or have expired a while ago, or its address was changed."
        }
        var back = "<p>Go back to the application and start the sign-in again.</p>"
        if let home = client.homeURI {
            let label = client.name ?? home
            back += """
                <p><a id="back-to-app" href="\(HTMLText.escaped(home))" rel="noopener noreferrer">Back to \
                \(HTMLText.escaped(label))</a></p>
                """
        }
        return document(
            title: heading,
            body: """
                <h1>\(HTMLText.escaped(heading))</h1>
                <p id="explanation">\(HTMLText.escaped(explanation))</p>
                \(back)
                <p><small>Details: \(HTMLText.escaped(detail))</small></p>
                """
        )
    }
}
