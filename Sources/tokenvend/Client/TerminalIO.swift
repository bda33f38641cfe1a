import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's stdin and stderr as the client commands use them: byte reads, a no-echo prompt, and lines
/// on stderr.
enum TerminalIO {
    /// Whether stdin is a terminal.
    static var standardInputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// The next byte of stdin, `nil` at end of file. Unbuffered, so nothing past the password is consumed.
    /// - Throws: ``ClientCommandError/usage(_:)`` when stdin cannot be read.
    static func readStandardInputByte() throws -> UInt8? {
        var byte: UInt8 = 0
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count == 1 { return byte }
            if count == 0 { return nil }
            let code = errno
            if code == EINTR { continue }
            throw ClientCommandError.usage("cannot read stdin: errno \(code)")
        }
    }

    /// Writes `prompt` to stderr, reads a line from the terminal on stdin with echo, canonical mode and
    /// signal keys off (so Control-C cannot leave the terminal without echo), and restores the terminal.
    /// - Returns: the line, or `nil` when the user cancelled (Control-C, or Control-D on an empty line).
    /// - Throws: ``ClientCommandError/usage(_:)`` when the terminal cannot be configured or read.
    static func promptWithoutEcho(_ prompt: String) throws -> String? {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else {
            throw ClientCommandError.usage("cannot read the terminal settings: errno \(errno)")
        }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG)
        withUnsafeMutableBytes(of: &quiet.c_cc) { characters in
            characters[Int(VMIN)] = 1
            characters[Int(VTIME)] = 0
        }
        writeStandardError(prompt, newline: false)
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet) == 0 else {
            throw ClientCommandError.usage("cannot turn off the terminal echo: errno \(errno)")
        }
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            writeStandardError("")
        }
        var editor = PasswordLineEditor()
        while let byte = try readStandardInputByte() {
            switch editor.feed(byte) {
            case .more: continue
            case .done(let line): return line
            case .cancelled: return nil
            }
        }
        return nil
    }

    /// Writes `text`, and a line feed unless `newline` is `false`, to stderr (unbuffered).
    static func writeStandardError(_ text: String, newline: Bool = true) {
        write(newline ? text + "\n" : text, to: STDERR_FILENO)
    }

    /// Writes `text` and a line feed to stdout (unbuffered).
    static func writeStandardOutput(_ text: String) {
        write(text + "\n", to: STDOUT_FILENO)
    }

    /// Writes all of `text` to `descriptor`, retrying after a signal; gives up silently on any other error (a
    /// closed stderr must not fail the command).
    private static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written > 0 {
                bytes = bytes.dropFirst(written)
            } else if written < 0, errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}
