/// Turns the bytes typed at a no-echo, non-canonical terminal into a password line.
///
/// Handles what the terminal driver would in canonical mode: Enter ends the line, Backspace/Delete removes
/// the last character (a whole UTF-8 sequence), Control-U clears the line; Control-C cancels, and so does
/// Control-D on an empty line. Other control characters but Tab are ignored. At most ``maximumBytes`` bytes
/// are kept; more are ignored.
struct PasswordLineEditor {
    /// What to do after a byte.
    enum Step: Equatable {
        /// Read another byte.
        case more
        /// The line is complete.
        case done(String)
        /// The user cancelled.
        case cancelled
    }

    /// The longest password kept, in bytes (the server accepts at most 128 characters).
    static let maximumBytes = 4096

    private(set) var bytes: [UInt8] = []

    /// Feeds one byte read from the terminal.
    mutating func feed(_ byte: UInt8) -> Step {
        switch byte {
        case 0x0A, 0x0D:
            return .done(String(decoding: bytes, as: UTF8.self))
        case 0x03:
            return .cancelled
        case 0x04:
            return bytes.isEmpty ? .cancelled : .more
        case 0x08, 0x7F:
            // Drop continuation bytes (10xxxxxx), then the lead byte of the last character.
            while let last = bytes.last, last & 0xC0 == 0x80 { bytes.removeLast() }
            if !bytes.isEmpty { bytes.removeLast() }
            return .more
        case 0x15:
            bytes.removeAll()
            return .more
        case 0x09:
            append(byte)
            return .more
        case 0x00..<0x20:
            return .more
        default:
            append(byte)
            return .more
        }
    }

    private mutating func append(_ byte: UInt8) {
        if bytes.count < Self.maximumBytes { bytes.append(byte) }
    }
}
