import ArgumentParser
import TokenClientCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Options every client command takes: which server, and where the session is kept.
struct ClientOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The server's API root. Default: $TOKENVEND_URL, else the server of the last login, else "
                + "\(ServerURL.defaultText).",
            valueName: "url"))
    var url: String?

    @Option(
        help: ArgumentHelp(
            "The session file (mode 0600). Default: $XDG_CONFIG_HOME/tokenvend/session.json, else "
                + "~/.config/tokenvend/session.json.",
            valueName: "path"))
    var sessionFile: String?

    /// The resolved session file location.
    func location(environment: [String: String]) -> SessionFileLocation {
        SessionFileLocation.resolve(explicitPath: sessionFile, environment: environment)
    }

    /// The server to talk to about the session at `location`: the explicit URL (`--url`, `TOKENVEND_URL`),
    /// else the one recorded at login, else the default.
    /// - Parameter replacingRecord: `true` for `login`, which may point the session at another server.
    /// - Throws: ``ClientCommandError/usage(_:)`` for a malformed URL, or, unless `replacingRecord`, an
    ///   explicit URL other than the one the session was created with.
    func serverURL(for location: SessionFileLocation, environment: [String: String], replacingRecord: Bool)
        throws -> URL
    {
        let recorded = SessionServerRecord(sessionFile: location.file).read()
        guard let text = ServerURL.explicitText(flag: url, environment: environment) else {
            return try recorded ?? ServerURL.parse(ServerURL.defaultText)
        }
        let explicit = try ServerURL.parse(text)
        if !replacingRecord, let recorded, !ServerURL.same(recorded, explicit) {
            throw ClientCommandError.usage(
                "the session in \(location.file.path) belongs to \(recorded.absoluteString), not "
                    + "\(explicit.absoluteString): run tokenvend login --url \(explicit.absoluteString), or pass "
                    + "--session-file")
        }
        return explicit
    }

    /// A session over the session file, talking to the server ``serverURL(for:environment:replacingRecord:)``
    /// chooses. Warns on stderr when credentials would cross the network in clear text.
    /// - Parameter dpop: whether the session signs DPoP proofs with the key in the session file (its `dpopKey`
    ///   member, made at the first proof when missing); `nil`: when the file holds a key (a session `login` bound).
    /// - Throws: what ``serverURL(for:environment:replacingRecord:)`` throws.
    func makeSession(in context: ClientContext, replacingRecord: Bool = false, dpop: Bool? = nil) throws
        -> ClientSession
    {
        let location = location(environment: context.environment)
        let server = try serverURL(
            for: location, environment: context.environment, replacingRecord: replacingRecord)
        if let warning = ServerURL.insecureWarning(for: server) { context.writeError(warning) }
        let store = FileTokenStore(url: location.file)
        let binds = dpop ?? ((try? store.loadKey()) != nil)
        let session = AuthSession(
            baseURL: server, transport: context.transport, store: store,
            dpop: binds ? DPoPConfiguration(keyStore: store, keyKind: .softwareP256) : nil)
        return ClientSession(location: location, serverURL: server, session: session)
    }
}
