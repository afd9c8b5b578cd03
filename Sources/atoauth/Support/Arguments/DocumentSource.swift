import ArgumentParser
import Foundation

/// Where a document is read from, as `client check` takes it: an http(s) URL, else a file's path.
enum DocumentSource: ArgumentValue, Hashable {
    case url(URL)
    case file(String)

    init(parsing text: String) throws(InvalidArgument) {
        let lowered = text.lowercased()
        guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://") else {
            self = .file(text)
            return
        }
        do {
            self = .url(try HTTPURL(parsing: text).url)
        } catch {
            throw InvalidArgument(value: text, requirement: error.requirement, subject: "The document's URL")
        }
    }
}
