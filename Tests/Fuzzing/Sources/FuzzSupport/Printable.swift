import WireFormat

/// Checks what every error made from hostile input must be: a non-empty message that prints safely on a terminal
/// (no control or bidi characters, see `TerminalText`).
public func invariantPrintable(_ error: any Error, file: StaticString = #fileID, line: UInt = #line) {
    let message = String(describing: error)
    invariant(!message.isEmpty, "an error has a message", file: file, line: line)
    invariant(
        TerminalText.isSafe(message),
        "an error message prints safely: \(message.debugDescription)",
        file: file,
        line: line
    )
}

/// Runs `parse` on hostile input: checks `properties` on what it returns, or that its error prints safely.
public func checkParse<Value>(
    _ parse: () throws -> Value,
    file: StaticString = #fileID,
    line: UInt = #line,
    then properties: (Value) -> Void = { _ in }
) {
    let value: Value
    do {
        value = try parse()
    } catch {
        invariantPrintable(error, file: file, line: line)
        return
    }
    properties(value)
}
