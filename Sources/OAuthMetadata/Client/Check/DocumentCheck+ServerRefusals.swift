extension DocumentCheck {
    /// The OpenID Connect members AT Protocol OAuth has no use for (it issues no ID token and serves no userinfo),
    /// which the reference server refuses whatever their value.
    static let openIDConnectMembers = [
        "default_max_age", "userinfo_signed_response_alg", "id_token_signed_response_alg",
        "userinfo_encrypted_response_alg",
    ]

    /// Members the reference server refuses, though RFC 7591 and OpenID Connect Registration define them: OpenID
    /// Connect members, a `subject_type` other than `public`, encrypted authorization responses, mTLS-bound tokens,
    /// authorization details types; and a `client_name` that is not a string.
    mutating func checkServerRefusals() {
        let rule = CheckRule.serverRefusal
        for name in Self.openIDConnectMembers where members[name].map(\.isNull) == false {
            report(name, "remove it: it is an OpenID Connect member, and AT Protocol OAuth issues no ID token", rule)
        }
        if let subjectType = string("subject_type", rule: rule), subjectType != "public" {
            report("subject_type", "it is \(Self.quoted(subjectType)); only public is supported", rule)
        }
        if members["authorization_encrypted_response_enc"].map(\.isNull) == false {
            report("authorization_encrypted_response_enc", "remove it: encrypted responses are not supported", rule)
        }
        if case .bool(true)? = members["tls_client_certificate_bound_access_tokens"] {
            report(
                "tls_client_certificate_bound_access_tokens",
                "it must not be true: access tokens are bound with DPoP, not mutual TLS",
                rule
            )
        }
        if case .array(let types)? = members["authorization_details_types"], !types.isEmpty {
            report("authorization_details_types", "remove it: authorization details are not supported", rule)
        }
        _ = string("client_name", rule: CheckRule.displayURIs)
    }
}
