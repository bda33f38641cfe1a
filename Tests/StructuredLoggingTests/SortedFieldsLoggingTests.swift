import Logging
import Testing

@testable import StructuredLogging

@Suite struct SortedFieldsLoggingTests {
    /// The line without its `ts` field, which differs between two calls.
    private func withoutTimestamp(_ line: Substring) -> String {
        if line.hasPrefix(#"{"ts":""#), let end = line.firstIndex(of: ",") { return String(line[end...]) }
        if line.hasPrefix("ts="), let end = line.firstIndex(of: " ") { return String(line[end...]) }
        return String(line)
    }

    @Test(
        "sorted fields give the same line, byte for byte, as Logger metadata does (JSON and logfmt, escapes, arrays)",
        arguments: [StructuredLogHandler.Format.json, .logfmt])
    func sameLineAsMetadata(format: StructuredLogHandler.Format) throws {
        let pipe = try Pipe()
        let output = LogOutput(fileDescriptor: pipe.writeEnd)
        let handler = StructuredLogHandler(label: "tokenvend", format: format, level: .info, output: output)
        let metadata: Logger.Metadata = [
            "request.id": "r-1", "http.path": "/a \"b\"\n", "client.address": "2001:db8::1",
            "user.id": .stringConvertible(42), "list": ["x", "y"], "empty": "", "http.status": "200",
        ]
        Logger(label: "tokenvend") { _ in handler }.info("request", metadata: metadata)
        let sorted = metadata.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
        #expect(handler.log(level: .info, message: "request", sortedFields: sorted))
        let lines = pipe.drain().split(separator: "\n")
        try #require(lines.count == 2)
        #expect(withoutTimestamp(lines[0]) == withoutTimestamp(lines[1]))
    }

    @Test("a handler with metadata of its own declines, so the caller's general path adds it")
    func declinesWithHandlerMetadata() throws {
        let pipe = try Pipe()
        var handler = StructuredLogHandler(
            label: "t", format: .json, level: .info, output: LogOutput(fileDescriptor: pipe.writeEnd))
        handler[metadataKey: "service"] = "tokenvend"
        #expect(!handler.log(level: .info, message: "request", sortedFields: [("a", "b")]))
        handler.metadata = [:]
        handler.metadataProvider = Logger.MetadataProvider { ["trace": "1"] }
        #expect(!handler.log(level: .info, message: "request", sortedFields: [("a", "b")]))
        #expect(pipe.drain() == "")
    }
}
