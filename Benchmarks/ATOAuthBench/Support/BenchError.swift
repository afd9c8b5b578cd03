/// A benchmark that could not run: a server that did not start, a command that failed, a wrong answer.
struct BenchError: Error, CustomStringConvertible {
    /// What went wrong.
    var description: String

    /// Creates an error with a message.
    init(_ description: String) {
        self.description = description
    }
}
