import Foundation
import Keystore
import Testing

/// `atoauth sandbox` in its own process plus a private atoauth home, key file and `$BROWSER`, for running the CLI.
struct CLIWorld: Sendable {
    let sandbox: SandboxProcess
    let directory: URL
    /// What the test started here that must be gone before the folder is: stopped once the body returns or throws.
    let children = WorldChildren()

    var home: URL { directory.appendingPathComponent("home") }
    var keyFile: URL { directory.appendingPathComponent("config/store.key") }

    static let browserScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("approve_browser.py")

    /// The environment every atoauth process of this world gets: the sandbox settings and private paths.
    var environment: [String: String] {
        var environment = sandbox.environment
        environment["ATOAUTH_HOME"] = home.path
        environment["ATOAUTH_KEY_FILE"] = keyFile.path
        environment["HOME"] = directory.path
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        environment["BROWSER"] = "python3 \(Self.browserScript.path)"
        return environment
    }

    /// Starts `atoauth sandbox [--auto-approve] sandboxArguments…`, runs `body`, then stops it and removes the files.
    static func with<T>(
        _ sandboxArguments: [String] = [],
        autoApprove: Bool = true,
        _ body: (CLIWorld) async throws -> T
    ) async throws -> T {
        let sandbox = try await SandboxProcess(arguments: sandboxArguments, autoApprove: autoApprove)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("atoauth-cli-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer {
            // A folder that cannot be removed is something a command or a child left behind: say which test.
            do {
                try FileManager.default.removeItem(at: directory)
            } catch {
                Issue.record("\(directory.lastPathComponent) could not be removed: \(error)")
            }
        }
        let world = CLIWorld(sandbox: sandbox, directory: directory)
        do {
            let result = try await body(world)
            await world.children.stopAll()
            await sandbox.stop()
            return result
        } catch {
            await world.children.stopAll()
            await sandbox.stop()
            throw error
        }
    }

    /// The DID of a sandbox account.
    func did(_ handle: String) -> String? {
        sandbox.accounts[handle]
    }

    /// Runs `atoauth arguments…` in this world.
    func atoauth(
        _ arguments: String...,
        extraEnvironment: [String: String] = [:],
        stdin: Data? = nil
    ) async throws -> CLIProcess.Result {
        try await atoauth(arguments, extraEnvironment: extraEnvironment, stdin: stdin)
    }

    /// Runs `atoauth arguments…` in this world.
    func atoauth(
        _ arguments: [String],
        extraEnvironment: [String: String] = [:],
        stdin: Data? = nil
    ) async throws -> CLIProcess.Result {
        try await CLIProcess.run(arguments, environment: environment.merging(extraEnvironment) { $1 }, stdin: stdin)
    }

    /// Signs in through the CLI and the stand-in browser, expecting success.
    @discardableResult
    func signIn(_ handle: String) async throws -> CLIProcess.Result {
        let result = try await atoauth("accounts", "add", handle)
        #expect(result.status == 0, "accounts add \(handle) failed: \(result.stderr)")
        return result
    }

    /// The stored session of `did`, decrypted with the world's key file, as JSON.
    func storedSession(_ did: String) throws -> [String: Any] {
        let store = try EncryptedFileKeystore(directory: home, keySource: .keyFile(keyFile))
        let data = try #require(try store.load("session/\(did)"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The keystore entry names.
    func storedNames() throws -> [String] {
        try EncryptedFileKeystore(directory: home, keySource: .keyFile(keyFile)).names()
    }

    /// Every regular file under the home and the key file's folder, with its mode and bytes.
    func files() throws -> [(url: URL, mode: Int, bytes: Data)] {
        var result: [(URL, Int, Data)] = []
        for root in [home, keyFile.deletingLastPathComponent()] {
            let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
                let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0
                let data = attributes[.type] as? FileAttributeType == .typeRegular ? try Data(contentsOf: url) : Data()
                result.append((url, mode, data))
            }
        }
        return result
    }
}
