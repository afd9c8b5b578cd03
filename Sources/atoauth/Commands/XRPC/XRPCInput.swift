import Foundation
import HTTPTransport
import Keystore
import WireFormat

/// The body of a procedure from `xrpc --input`, and its content type.
struct XRPCInput {
    var body: Data
    var contentType: String

    /// The largest input read: far above any blob a PDS takes, and still a bound on memory.
    static let maximumSize = 1 << 30

    /// Reads `--input`: inline text, `@FILE`, or `-` for standard input (read as bytes).
    ///
    /// The content type is `contentType` when given; else `application/json` when the bytes are JSON (inline input
    /// must be); else the type the file's extension implies; else `application/octet-stream`. A body sent as JSON
    /// must be JSON.
    static func read(_ argument: String, contentType: String?) throws -> XRPCInput {
        let body: Data
        var implied: String?
        if argument == "-" {
            body = try readStandardInput()
        } else if argument.hasPrefix("@") {
            let path = String(argument.dropFirst())
            guard !path.isEmpty else { throw usage("--input @ needs a file name after the @, such as @photo.png.") }
            body = try contents(ofFile: path)
            implied = MediaType.forExtension(URL(fileURLWithPath: path).pathExtension)
        } else {
            body = Data(argument.utf8)
            implied = contentType == nil ? MediaType.json : nil
        }
        // RFC 8259's grammar decides, not JSONSerialization, which takes trailing commas on Linux.
        let syntaxError = JSONSyntaxError.find(in: body)
        let isJSON = syntaxError == nil
        let type = contentType ?? (isJSON ? MediaType.json : implied ?? MediaType.octetStream)
        guard isJSON || !ContentTypeField.isJSON(type) else {
            let place = syntaxError.map { ": \($0)" } ?? ""
            throw usage(
                "--input is not valid JSON, but would be sent as \(type)\(place). Fix the JSON, or give "
                    + "--content-type for a body that is not JSON."
            )
        }
        return XRPCInput(body: body, contentType: type)
    }

    /// The bytes of a regular file, or a usage error that says why it cannot be read (``UserFile``).
    private static func contents(ofFile path: String) throws -> Data {
        try UserFile.read(path, limit: maximumSize, what: "the input file") {
            "Cannot send the input file \($0): it is larger than \(maximumSize >> 30) GiB."
        }
        .data
    }

    /// Everything standard input holds, up to ``maximumSize``.
    private static func readStandardInput() throws -> Data {
        var data = Data()
        do {
            while let chunk = try FileHandle.standardInput.read(upToCount: 1 << 20), !chunk.isEmpty {
                data.append(chunk)
                guard data.count <= maximumSize else {
                    throw usage("Cannot send standard input: it is larger than \(maximumSize >> 30) GiB.")
                }
            }
        } catch let failure as CLIFailure {
            throw failure
        } catch {
            throw usage("Cannot read standard input: \(error.localizedDescription).")
        }
        return data
    }

    private static func usage(_ message: String) -> CLIFailure {
        CLIFailure(status: .usage, message: message)
    }
}
