import Foundation
import HummingbirdCore
import Logging
import NIOCore

extension GatewayHandler {
    /// Appends the audit line of a finished request, when the audit log is on; a line that cannot be written is
    /// said in the gateway's log, and the request is not affected.
    func audit(_ record: RequestRecord, status: Int, elapsed: Duration) {
        guard let audit else { return }
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        let line = AuditLog.Line(
            time: AuditLog.timestamp(now()),
            token: record.token,
            account: record.account,
            method: record.method,
            nsid: record.nsid,
            path: record.nsid == nil ? record.path : nil,
            status: status,
            error: record.refusal?.name,
            bytesIn: record.bytesIn,
            bytesOut: record.bytesOut.value,
            ms: (milliseconds * 1000).rounded() / 1000
        )
        if let code = audit.append(line) {
            logger.error(
                "an audit line could not be written",
                metadata: ["path": .string(audit.path), "error": .string(String(cString: strerror(code)))]
            )
        }
    }

    /// `body`, its bytes counted into `count` as they are written; its length, when known, kept.
    static func counted(_ body: ResponseBody, into count: ByteCount) -> ResponseBody {
        ResponseBody(contentLength: body.contentLength) { writer in
            try await body.write(
                writer.map { buffer in
                    count.add(buffer.readableBytes)
                    return buffer
                }
            )
        }
    }
}
