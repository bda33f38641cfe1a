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
/// a line at `warning` or above arrives, and whenever `flush()` runs. The executable creates one buffered
/// output for stderr, binds every handler to it (so lines stay in order) and hands `flush` to the server, which
/// calls it after every batch of socket events (so an access line reaches the file within that batch, before the
/// loop sleeps) and on shutdown. Lines are never split or interleaved; the buffer lock also orders the writes.
/// There is no process-wide state: whoever creates an output owns it and flushes it.
///
/// ```swift
/// let output = LogOutput(fileDescriptor: 2, buffered: true)
/// LoggingSystem.bootstrap { StructuredLogHandler(label: $0, format: .json, level: .info, output: output) }
/// defer { output.flush() }
/// ```
public final class LogOutput: Sendable {
    /// The descriptor lines are written to.
    public let fileDescriptor: Int32
    /// Whether lines below `warning` wait in the buffer until `flush()` or 16 KiB.
    public let buffered: Bool
    private let buffer = Mutex<[UInt8]>([])
    private static let flushThreshold = 16384

    /// Creates an output for `fileDescriptor` (default: stderr).
    ///
    /// - Parameter buffered: Collect lines below `warning` in a buffer, written when it passes 16 KiB, when a
    ///   `warning` or worse arrives, and on `flush()`. Default: false (one `write(2)` per line).
    public init(fileDescriptor: Int32 = 2, buffered: Bool = false) {
        self.fileDescriptor = fileDescriptor
        self.buffered = buffered
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

    /// Builds one line in place: `build` receives the buffered lines and appends one finished line to them
    /// (unbuffered: an empty array), under the buffer's lock, so the line is never copied.
    func emit(urgent: Bool, _ build: (inout [UInt8]) -> Void) {
        guard buffered else {
            var line: [UInt8] = []
            line.reserveCapacity(320)
            build(&line)
            Self.writeAll(fileDescriptor, line)
            return
        }
        buffer.withLock { pending in
            build(&pending)
            if urgent || pending.count >= Self.flushThreshold {
                Self.writeAll(fileDescriptor, pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Writes what is buffered now. Cheap when nothing is buffered; does nothing for an unbuffered output.
    public func flush() {
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
