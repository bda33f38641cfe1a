import Logging
import Testing

@testable import StructuredLogging

@Suite struct LogFieldValueTests {
    @Test("http.duration_ms is written exactly as Double(micros) / 1000 describes itself")
    func durationText() {
        var mismatches: [UInt64] = []
        for micros in UInt64(0)...200_000
        where LogFieldValue.millisecondsText(micros: micros) != "\(Double(micros) / 1000)" {
            mismatches.append(micros)
        }
        for micros: UInt64 in [1_000_000, 1_234_567, 86_400_000_000, 999_999_999_999]
        where LogFieldValue.millisecondsText(micros: micros) != "\(Double(micros) / 1000)" {
            mismatches.append(micros)
        }
        #expect(mismatches.isEmpty)
        #expect(LogFieldValue.millisecondsText(micros: 42) == "0.042")
        #expect(LogFieldValue.millisecondsText(micros: 12_500) == "12.5")
        #expect(LogFieldValue.millisecondsText(micros: 3000) == "3.0")
    }
}

extension LogFieldValueTests {
    @Test(
        "typed fields give the same line, byte for byte, as their metadata values do (JSON and logfmt)",
        arguments: [StructuredLogHandler.Format.json, .logfmt])
    func typedSameAsMetadata(format: StructuredLogHandler.Format) throws {
        let pipe = try Pipe()
        let handler = StructuredLogHandler(
            label: "tokenvend", format: format, level: .info, output: LogOutput(fileDescriptor: pipe.writeEnd))
        let typed: [(key: String, value: LogFieldValue)] = [
            ("a.list", .metadata(["x", "y"])), ("client.address", .string("2001:db8::1")),
            ("http.duration_ms", .milliseconds(micros: 1_234_560)), ("http.path", .string("/a \"b\"\n")),
            ("http.status", .unsigned(200)), ("zero", .unsigned(0)), ("zz.ms", .milliseconds(micros: 7)),
        ]
        #expect(handler.log(level: .info, message: "request", sortedFields: typed))
        #expect(
            handler.log(
                level: .info, message: "request",
                sortedFields: typed.map { (key: $0.key, value: $0.value.metadataValue) }))
        let lines = pipe.drain().split(separator: "\n")
        try #require(lines.count == 2)
        let withoutTimestamp = lines.map { line in line.drop { $0 != "," && $0 != " " } }
        #expect(withoutTimestamp[0] == withoutTimestamp[1])
        #expect(lines[0].contains("1234.56") && lines[0].contains("0.007"))
    }
}
