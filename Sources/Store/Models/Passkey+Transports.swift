// How both backends store `Passkey.transports`: one text column, comma-separated (empty for none).
extension Passkey {
    /// The transports as stored: those that are neither empty nor contain a comma (WebAuthn's transport names are
    /// tokens such as `internal` or `hybrid`; anything else could not be read back as written), joined by commas.
    package var storedTransports: String {
        transports.filter { !$0.isEmpty && !$0.contains(",") }.joined(separator: ",")
    }

    /// The transports of a stored column (`storedTransports`); none for the empty text.
    package static func transports(stored: String) -> [String] {
        stored.split(separator: ",", omittingEmptySubsequences: true).map(String.init)
    }
}
