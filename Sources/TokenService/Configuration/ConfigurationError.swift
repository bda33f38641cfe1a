/// Why a configuration could not be loaded. Each description is one line that names the key (and the
/// environment variable or flag it came from) and never contains a secret value.
public enum ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A key that the configuration does not know, as its key path (`server.prot`) and where it was found, with
    /// the closest known key path (`server.port`) when there is one.
    case unknownKey(key: String, source: String, suggestion: String? = nil)
    /// A `TOKENVEND_` environment variable that names no configuration key (and is no Kubernetes service link),
    /// with the path of the key whose variable name is closest (`server.port` for `TOKENVEND_SERVER_PROT`).
    case unknownEnvironmentVariable(String, suggestion: String? = nil)
    /// A value of the wrong type, out of range, or inconsistent with another key.
    /// `key` is the key path (`server.port`, `accessToken.keys[0].secret`); `source` is where the value came
    /// from (`Config/tokenvend.json`, `TOKENVEND_SERVER_PORT`, `--port`) or empty for a cross-key check.
    case invalidValue(key: String, source: String, reason: String)
    /// The configuration file could not be read or is not a JSON object.
    case unreadableFile(path: String, reason: String)
    /// The database folder (or the development key file beside it) could not be created, read or written.
    case storage(key: String, reason: String)

    /// One line naming the key, e.g. `server.port (TOKENVEND_SERVER_PORT): expected an integer from 0 to 65535,
    /// got "abc"`.
    public var description: String {
        switch self {
        case .unknownKey(let key, let source, let suggestion):
            let hint = suggestion.map { "; did you mean \($0)?" } ?? ""
            return "\(key): unknown configuration key (in \(source))\(hint)"
        case .unknownEnvironmentVariable(let name, let suggestion):
            let hint =
                suggestion.map { "; did you mean \(ConfigurationKey.environmentName(for: $0)) (\($0))?" } ?? ""
            return "\(name): unknown environment variable; TOKENVEND_* variables must name a configuration key\(hint)"
        case .invalidValue(let key, let source, let reason):
            return source.isEmpty ? "\(key): \(reason)" : "\(key) (\(source)): \(reason)"
        case .unreadableFile(let path, let reason):
            return "configuration file \(path): \(reason)"
        case .storage(let key, let reason):
            return "\(key): \(reason)"
        }
    }
}
