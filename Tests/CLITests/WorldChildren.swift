import ATOAuthTesting
import Foundation
import Synchronization
import Testing

/// The processes started in a ``CLIWorld`` that may outlive a test's body, such as a gateway: the world stops each and
/// waits for its exit before it removes its folder, where they keep their files.
final class WorldChildren: Sendable {
    private let processes = Mutex<[ChildProcess]>([])

    /// Adds a process to stop with the world.
    func add(_ process: ChildProcess) {
        processes.withLock { $0.append(process) }
    }

    /// Sends SIGTERM to each process still running and waits for its exit: 20 seconds, then SIGKILL.
    func stopAll() async {
        for process in processes.withLock({ $0 }) where process.isRunning {
            if await !process.stop(SIGTERM, within: .seconds(20)) {
                Issue.record("\(process.commandLine) did not stop within 20 s of SIGTERM and was killed")
            }
        }
    }
}
