import ATOAuthTesting
import Foundation
import HTTPTransport
import Testing

@testable import Gateway

@Suite("A spool file read while it is still being written")
struct SpoolFileTests {
    struct WriterStopped: Error {}

    /// A new spool file in a directory of its own, removed after `body`.
    private func withSpoolFile(_ body: (SpoolFile) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try SpoolFile.create(in: directory.path)
        defer { file.discard() }
        try await body(file)
    }

    @Test("a reader waits for each piece as it is written, and a second reader gets it all again from the start")
    func growing() async throws {
        try await withSpoolFile { file in
            let pieces = (0..<5).map { Data(repeating: UInt8($0 + 1), count: 1000) }
            let whole = pieces.reduce(Data(), +)
            let body = file.growingBody(length: whole.count)
            let first = Task { try await body.collected() }
            for piece in pieces {
                try await Waiting.until("the reader to wait for the next piece") { file.waitingReads == 1 }
                try piece.withUnsafeBytes { try file.append($0) }
            }
            file.finish()
            #expect(try await first.value == whole)
            #expect(try await body.collected() == whole)
        }
    }

    @Test("the writer's failure reaches a waiting reader")
    func failure() async throws {
        try await withSpoolFile { file in
            try Data(repeating: 7, count: 10).withUnsafeBytes { try file.append($0) }
            let reader = Task { try await file.growingBody(length: 100).collected() }
            try await Waiting.until("the reader to wait for more") { file.waitingReads == 1 }
            file.fail(WriterStopped())
            await #expect(throws: WriterStopped.self) { try await reader.value }
        }
    }

    @Test("a body that ends short of its length once the writer finished is an error, not a wait")
    func finishedShort() async throws {
        try await withSpoolFile { file in
            try Data(repeating: 7, count: 10).withUnsafeBytes { try file.append($0) }
            file.finish()
            await #expect(throws: (any Error).self) { try await file.growingBody(length: 100).collected() }
        }
    }

    @Test("cancelling a waiting reader ends its wait")
    func cancellation() async throws {
        try await withSpoolFile { file in
            let reader = Task { try await file.growingBody(length: 10).collected() }
            try await Waiting.until("the reader to wait") { file.waitingReads == 1 }
            reader.cancel()
            await #expect(throws: CancellationError.self) { try await reader.value }
        }
    }
}
