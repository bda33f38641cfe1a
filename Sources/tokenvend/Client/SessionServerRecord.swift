import FoundationEssentials
import PrivateFiles
import UnicodeText

/// The server a session file belongs to, kept beside it in `<session file>.server` (one line, mode 0600, replaced
/// atomically).
///
/// Written by `tokenvend login`; the other commands use it when no `--url` is given and refuse a different
/// `--url`, so a session's tokens are never sent to a server that did not issue them.
struct SessionServerRecord {
    /// The record file.
    let file: URL

    /// The record for the session file at `sessionFile`.
    init(sessionFile: URL) {
        self.file = URL(fileURLWithPath: sessionFile.path + ".server")
    }

    /// The recorded server, `nil` when there is no readable record.
    func read() -> URL? {
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        let text = UnicodeText.trimmingWhitespaceAndNewlines(String(decoding: data, as: UTF8.self))
        return try? ServerURL.parse(text)
    }

    /// Records `url`, replacing the record atomically with a file that is 0600 from its first instant
    /// (``PrivateFile/writeAtomically(_:to:)``).
    /// - Throws: ``ClientCommandError/sessionFile(_:)`` when the record cannot be written.
    func write(_ url: URL) throws {
        do {
            try PrivateFile.writeAtomically(Array((url.absoluteString + "\n").utf8), to: file.path)
        } catch {
            throw ClientCommandError.sessionFile("cannot write \(file.path)")
        }
    }

    /// Deletes the record; succeeds when there is none.
    func remove() {
        try? FileManager.default.removeItem(at: file)
    }
}
