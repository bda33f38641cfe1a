import Logging
import Testing

@testable import StructuredLogging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pipe whose read end never blocks, to see what an output has written so far.
final class Pipe {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        readEnd = ends[0]
        writeEnd = ends[1]
        _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
    }

    /// Everything written since the last call.
    func drain() -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }
}

@Suite struct LogOutputTests {
    @Test("a buffered output holds lines below warning until its own flush, and writes a warning at once")
    func bufferedUntilFlush() throws {
        let pipe = try Pipe()
        let output = LogOutput(fileDescriptor: pipe.writeEnd, buffered: true)
        let logger = Logger(label: "t") {
            StructuredLogHandler(label: $0, format: .json, level: .trace, output: output)
        }
        logger.info("first")
        logger.debug("second")
        #expect(pipe.drain() == "")
        output.flush()
        let flushed = pipe.drain().split(separator: "\n")
        #expect(flushed.count == 2)
        #expect(flushed.first?.contains(#""msg":"first""#) == true)
        #expect(flushed.last?.contains(#""msg":"second""#) == true)
        logger.warning("third")
        #expect(pipe.drain().contains(#""msg":"third""#))
    }

    @Test("two outputs are independent: flushing one leaves the other's lines buffered (no process-wide state)")
    func outputsAreInstances() throws {
        let first = try Pipe()
        let second = try Pipe()
        let one = LogOutput(fileDescriptor: first.writeEnd, buffered: true)
        let other = LogOutput(fileDescriptor: second.writeEnd, buffered: true)
        Logger(label: "a") { StructuredLogHandler(label: $0, format: .logfmt, level: .info, output: one) }.info(
            "to one")
        Logger(label: "b") { StructuredLogHandler(label: $0, format: .logfmt, level: .info, output: other) }
            .info("to other")
        one.flush()
        #expect(first.drain().contains(#"msg="to one""#))
        #expect(second.drain() == "")
        other.flush()
        #expect(second.drain().contains(#"msg="to other""#))
    }

    @Test("an unbuffered output writes each line at once")
    func unbuffered() throws {
        let pipe = try Pipe()
        let logger = Logger(label: "t") {
            StructuredLogHandler(label: $0, format: .json, level: .info, fileDescriptor: pipe.writeEnd)
        }
        logger.info("now")
        #expect(pipe.drain().contains(#""msg":"now""#))
    }
}
