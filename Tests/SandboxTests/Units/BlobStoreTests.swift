import Foundation
import Testing

@testable import Sandbox

@Suite("The repository store keeps blobs within a budget of bytes and of count, dropping the oldest first")
struct BlobStoreTests {
    static func blob(_ byte: UInt8, size: Int, type: String = "application/octet-stream") -> RepositoryStore.Blob {
        let bytes = Data(repeating: byte, count: size)
        return RepositoryStore.Blob(cid: ContentID.blob(bytes), mimeType: type, bytes: bytes)
    }

    @Test("past the byte budget the oldest blob is dropped; the same blob uploaded again keeps its place")
    func byteBudget() async {
        let store = RepositoryStore(maximumBlobBytes: 100, maximumBlobCount: 10)
        let first = Self.blob(1, size: 40)
        let second = Self.blob(2, size: 40)
        #expect(await store.addBlob(did: "did:plc:a", blob: first) == 0)
        #expect(await store.addBlob(did: "did:plc:a", blob: second) == 0)
        #expect(await store.addBlob(did: "did:plc:a", blob: Self.blob(1, size: 40, type: "image/png")) == 0)
        #expect(await store.blob(did: "did:plc:a", cid: first.cid)?.mimeType == "image/png")
        #expect(await store.blobUsage.bytes == 80)

        #expect(await store.addBlob(did: "did:plc:b", blob: Self.blob(3, size: 40)) == 1)
        #expect(await store.blob(did: "did:plc:a", cid: first.cid)?.bytes == nil)
        #expect(await store.blob(did: "did:plc:a", cid: second.cid)?.bytes == second.bytes)
        #expect(await store.blob(did: "did:plc:b", cid: second.cid)?.bytes == nil, "blobs are kept per DID")
        #expect(await store.blobUsage.count == 2)
        #expect(await store.blobUsage.bytes == 80)
    }

    @Test("past the count budget the oldest blobs are dropped, and a blob larger than the whole budget is not kept")
    func countBudget() async {
        let store = RepositoryStore(maximumBlobBytes: 1000, maximumBlobCount: 3)
        for byte in UInt8(0)..<10 {
            await store.addBlob(did: "did:plc:a", blob: Self.blob(byte, size: 1))
        }
        #expect(await store.blobUsage.count == 3)
        #expect(await store.blob(did: "did:plc:a", cid: Self.blob(6, size: 1).cid)?.bytes == nil)
        #expect(await store.blob(did: "did:plc:a", cid: Self.blob(7, size: 1).cid)?.bytes == Data([7]))

        let huge = Self.blob(42, size: 1001)
        #expect(await store.addBlob(did: "did:plc:a", blob: huge) == 1)
        #expect(await store.blob(did: "did:plc:a", cid: huge.cid)?.bytes == nil)
        #expect(await store.blobUsage.count == 3, "the kept blobs stay")
    }

    @Test("thousands of blobs through a small budget leave exactly the newest ones")
    func longRun() async {
        let store = RepositoryStore(maximumBlobBytes: 64, maximumBlobCount: 1000)
        var newest: [RepositoryStore.Blob] = []
        for index in 0..<5000 {
            let bytes = Data(String(format: "%08d", index).utf8)
            let blob = RepositoryStore.Blob(cid: ContentID.blob(bytes), mimeType: "text/plain", bytes: bytes)
            await store.addBlob(did: "did:plc:a", blob: blob)
            newest = Array((newest + [blob]).suffix(8))
        }
        #expect(await store.blobUsage.count == 8)
        #expect(await store.blobUsage.bytes == 64)
        for blob in newest {
            #expect(await store.blob(did: "did:plc:a", cid: blob.cid)?.bytes == blob.bytes)
        }
    }
}
