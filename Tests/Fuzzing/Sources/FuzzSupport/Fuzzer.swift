import CLibFuzzer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs libFuzzer with a target's body as its test function.
///
/// Each target's `main.swift` calls ``run(_:)`` from top-level code: SwiftPM renames that code's entry point and
/// makes it `main` (debug builds), so the program starts libFuzzer itself through `LLVMFuzzerRunDriver` and no
/// `-parse-as-library` is needed. libFuzzer calls back on the main thread, one input at a time.
public enum Fuzzer {
    nonisolated(unsafe) fileprivate static var body: (@MainActor (FuzzInput) -> Void)?

    /// Parses libFuzzer's command line and runs `body` on every input until libFuzzer stops; exits with its status.
    @MainActor
    public static func run(_ body: @escaping @MainActor (FuzzInput) -> Void) -> Never {
        Self.body = body
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in testOneInput(data, size) })
    }
}

/// libFuzzer's test function; defined here because libFuzzer's own `main`, linked but unused, refers to it.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(bytes: Array(UnsafeBufferPointer(start: data, count: size)))
    MainActor.assumeIsolated { Fuzzer.body?(input) }
    return 0
}

/// Stops the run with `message` when a property every input must keep is broken; libFuzzer saves the input.
public func invariant(
    _ condition: @autoclosure () -> Bool,
    _ message: @autoclosure () -> String,
    file: StaticString = #fileID,
    line: UInt = #line
) {
    guard !condition() else { return }
    fatalError("invariant broken: \(message())", file: file, line: line)
}
