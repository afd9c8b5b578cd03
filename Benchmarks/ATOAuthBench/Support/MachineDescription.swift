import Foundation

/// What the report says about the machine: processor, cores, memory, kernel and load.
enum MachineDescription {
    /// One line: processor model, logical cores, memory and kernel.
    static func summary() -> String {
        let model = field("model name", in: "/proc/cpuinfo") ?? "unknown processor"
        let memory =
            field("MemTotal", in: "/proc/meminfo")
            .flatMap { Double($0.split(separator: " ").first ?? "") }
            .map { String(format: "%.0f GiB", $0 / 1_048_576) } ?? "unknown memory"
        let kernel =
            (try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown kernel"
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return "\(model), \(cores) logical cores, \(memory), Linux \(kernel)"
    }

    /// The 1-, 5- and 15-minute load averages, as the kernel prints them.
    static func loadAverage() -> String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "unknown" }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    private static func field(_ name: String, in path: String) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return nil
    }
}
