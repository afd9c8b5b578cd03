import Foundation

/// What the README's example is given: `home` and `keyFile` are `URL`s, and `openInBrowser` takes one.
///
/// The example's own file imports only what the README block imports (`import ATOAuth`); this alias is the one name
/// the wrapping function adds, so that its signature can say `URL` without a second import in that file.
typealias URL = Foundation.URL
