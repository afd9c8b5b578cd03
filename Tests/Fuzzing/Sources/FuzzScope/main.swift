// OAuth scope values (RFC 6749 §3.3) and AT Protocol permissions (atproto.com/specs/permission): what an app
// requests, read strictly; what a server grants, read leniently; the canonical form; and the grant checks.
//
// Input: a scope value on the first line; the lines after it are a second one, taken as the grant.

import ATProtoPermissions
import ATProtoSyntax
import FuzzSupport

/// Checks the canonical form and the self-cover of every permission of `scope`.
func checkCanonical(_ scope: ScopeSet) {
    let canonical = scope.description
    let reread = ScopeSet(granted: canonical)
    invariant(reread == scope, "the canonical value \(canonical.debugDescription) reads back as the same scope")
    invariant(reread.description == canonical, "the canonical value of \(canonical.debugDescription) is stable")
    for permission in scope.permissions {
        let text = permission.description
        invariant((try? Permission(parsing: text)) == permission, "\(text.debugDescription) reads back the same")
        invariant(ScopeSet([permission]).covers(permission), "\(text.debugDescription) covers itself")
    }
    invariant(scope.missing(from: scope).isEmpty, "a grant of exactly what was asked lacks nothing")
}

Fuzzer.run { input in
    let lines = input.lines
    let first = lines[0]
    let second = lines.dropFirst().joined(separator: " ")

    let granted = ScopeSet(granted: first)
    checkCanonical(granted)
    do {
        let requested = try ScopeSet(requested: first)
        invariant(requested == granted, "a valid request reads the same both ways")
        invariant(requested.unrecognized.isEmpty, "a valid request has no unrecognized token")
    } catch {
        invariant(!granted.unrecognized.isEmpty, "only a value with an unrecognized token is refused")
        invariantPrintable(error)
    }

    let grant = ScopeSet(granted: second)
    let missing = grant.missing(from: granted)
    for token in missing.tokens {
        invariant(granted.tokens.contains(token), "what is missing was asked for")
    }
    for permission in granted.permissions where permission.include == nil {
        invariant(missing.contains(permission) != grant.covers(permission), "missing is what the grant does not cover")
    }
}
