import Foundation

/// Peak resident memory of a command, measured by GNU `time` (`/usr/bin/time -f %M`), which forks the command from
/// its own small process so the figure is the command's alone.
enum PeakMemory {
    /// Where GNU `time` is expected (Debian's `time` package).
    static let timeTool = "/usr/bin/time"

    /// Whether GNU `time` is installed.
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: timeTool) }

    /// Runs `executable` under GNU `time` and returns its peak resident size in bytes, with the run itself.
    static func measure(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String]
    ) async throws -> (bytes: Int, run: ChildProcess.Run) {
        let report = FileManager.default.temporaryDirectory
            .appendingPathComponent("atoauth-bench-\(UUID().uuidString).time").path
        defer { try? FileManager.default.removeItem(atPath: report) }
        let run = try await ChildProcess.run(
            timeTool,
            ["-f", "%M", "-o", report, executable] + arguments,
            environment: environment
        )
        let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        guard let kilobytes = text.split(separator: "\n").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) })
        else { throw BenchError("GNU time reported no peak memory: \(text)") }
        return (kilobytes * 1024, run)
    }
}
