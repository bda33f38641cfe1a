/// Finds the password for `tokenvend login`: one line of stdin with `--password-stdin`, else the
/// `TOKENVEND_PASSWORD` environment variable, else a no-echo prompt when stdin is a terminal.
///
/// The sources are injected so the choice and the line handling are tested without a terminal.
struct PasswordReader {
    /// The environment variable consulted when `--password-stdin` is not given.
    static let environmentVariable = "TOKENVEND_PASSWORD"
    /// The longest line accepted on stdin, in bytes.
    static let maximumLineBytes = 4096

    /// `--password-stdin` was given.
    var fromStandardInput: Bool
    /// The process environment.
    var environment: [String: String]
    /// Whether stdin is a terminal.
    var standardInputIsTerminal: Bool
    /// Returns the next byte of stdin, `nil` at end of file.
    var nextStandardInputByte: () throws -> UInt8?
    /// Prompts without echo and returns the line, `nil` when the user cancelled.
    var promptWithoutEcho: () throws -> String?

    /// The password.
    /// - Throws: ``ClientCommandError/usage(_:)`` when there is no password to read or it is empty,
    ///   ``ClientCommandError/cancelled`` when the user cancelled the prompt, and what the sources throw.
    func read() throws -> String {
        let password: String
        if fromStandardInput {
            guard let line = try Self.readLine(from: nextStandardInputByte) else {
                throw ClientCommandError.usage("--password-stdin: the password line is longer than 4096 bytes")
            }
            password = line
        } else if let value = environment[Self.environmentVariable], !value.isEmpty {
            password = value
        } else if standardInputIsTerminal {
            guard let line = try promptWithoutEcho() else { throw ClientCommandError.cancelled }
            password = line
        } else {
            throw ClientCommandError.usage(
                "no password: stdin is not a terminal; use --password-stdin or set \(Self.environmentVariable)")
        }
        guard !password.isEmpty else { throw ClientCommandError.usage("the password is empty") }
        return password
    }

    /// Reads up to the first line feed or the end of input and strips the line ending (`\n` or `\r\n`).
    /// - Returns: the line, or `nil` when it is longer than ``maximumLineBytes``.
    static func readLine(from next: () throws -> UInt8?) throws -> String? {
        var bytes: [UInt8] = []
        while let byte = try next(), byte != 0x0A {
            guard bytes.count < maximumLineBytes else { return nil }
            bytes.append(byte)
        }
        if bytes.last == 0x0D { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
