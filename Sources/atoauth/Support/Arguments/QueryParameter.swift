import ArgumentParser

/// An XRPC query parameter as `xrpc` takes it: `name=value`, the value possibly empty or holding more `=`.
struct QueryParameter: ArgumentValue, Hashable {
    var name: String
    var value: String

    init(parsing text: String) throws(InvalidArgument) {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else {
            throw InvalidArgument(
                value: text,
                requirement: "are name=value; “\(text)” is not",
                subject: "Query parameters"
            )
        }
        name = String(parts[0])
        value = String(parts[1])
    }
}
