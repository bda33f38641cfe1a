import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where `StructuredLogHandler` lines go: a file descriptor, written directly or through a small buffer.
///
/// Unbuffered, each line is one `write(2)` (atomic on a pipe below `PIPE_BUF`, and on an `O_APPEND` file).
/// Buffered, lines are appended whole to a `Mutex`-guarded buffer that is written when it passes 16 KiB, when
/// a line at `warning` or above arrives, and whenever `flushBuffered()` runs: the HTTP server calls it after
/// every batch of socket events (so an access line reaches the file within that batch, before the loop sleeps)
/// and on shutdown. Lines are never split or interleaved; the buffer lock also orders the writes.
final class LogOutput: Sendable {
    let fileDescriptor: Int32
    let buffered: Bool
    private let buffer = Mutex<[UInt8]>([])
    private static let flushThreshold = 16384
    /// Every buffered output, so `flushBuffered()` can reach them.
    private static let bufferedOutputs = Mutex<[LogOutput]>([])

    private init(fileDescriptor: Int32, buffered: Bool) {
        self.fileDescriptor = fileDescriptor
        self.buffered = buffered
    }

    /// The output for `fileDescriptor`: a new unbuffered one, or the process-wide buffered one for that
    /// descriptor (shared by every handler so lines stay in order).
    static func output(fileDescriptor: Int32, buffered: Bool) -> LogOutput {
        guard buffered else { return LogOutput(fileDescriptor: fileDescriptor, buffered: false) }
        return bufferedOutputs.withLock { outputs in
            if let existing = outputs.first(where: { $0.fileDescriptor == fileDescriptor }) { return existing }
            let output = LogOutput(fileDescriptor: fileDescriptor, buffered: true)
            outputs.append(output)
            return output
        }
    }

    /// Writes the buffered lines of every buffered output now.
    static func flushBuffered() {
        let outputs = bufferedOutputs.withLock { $0 }
        for output in outputs { output.flush() }
    }

    /// Takes one finished line (ending in a newline); `urgent` lines are written at once with what is buffered.
    func emit(_ line: [UInt8], urgent: Bool) {
        guard buffered else {
            Self.writeAll(fileDescriptor, line)
            return
        }
        buffer.withLock { pending in
            if pending.isEmpty && urgent {
                Self.writeAll(fileDescriptor, line)
                return
            }
            pending.append(contentsOf: line)
            if urgent || pending.count >= Self.flushThreshold {
                Self.writeAll(fileDescriptor, pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Writes what is buffered.
    func flush() {
        buffer.withLock { pending in
            guard !pending.isEmpty else { return }
            Self.writeAll(fileDescriptor, pending)
            pending.removeAll(keepingCapacity: pending.capacity <= 65536)
        }
    }

    private static func writeAll(_ fileDescriptor: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            guard var base = buffer.baseAddress else { return }
            var remaining = buffer.count
            while remaining > 0 {
                let written = write(fileDescriptor, base, remaining)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                remaining -= written
                base += written
            }
        }
    }
}
