/// Something about the loaded configuration the operator should see in the log, at warning level.
public enum ConfigurationNote: Sendable, Equatable, CustomStringConvertible {
    /// No key was configured, so development keys were generated and stored in the file at `path`.
    case developmentKeysGenerated(path: String)
    /// No key was configured, so the development keys stored in the file at `path` are used.
    case developmentKeysReused(path: String)
    /// The development key file at `path` can be read by other users (its mode is `mode`, octal).
    case developmentKeysReadableByOthers(path: String, mode: String)
    /// The existing database file, one of its `-wal`/`-shm`/`-commits` files, or its folder at `path` grants group or other
    /// users access (its mode is `mode`, octal; `expected` is 0600 for files, 0700 for the folder).
    case storageReadableByOthers(path: String, mode: String, expected: String)

    /// One line for the log.
    public var description: String {
        switch self {
        case .developmentKeysGenerated(let path):
            return "development keys generated at \(path); configure accessToken.keys and refreshToken.secret "
                + "for production"
        case .developmentKeysReused(let path):
            return "using development keys from \(path); configure accessToken.keys and refreshToken.secret "
                + "for production"
        case .developmentKeysReadableByOthers(let path, let mode):
            return "development key file \(path) has mode \(mode); it should be 0600"
        case .storageReadableByOthers(let path, let mode, let expected):
            return "\(path) has mode \(mode), so other users can read it; it should be \(expected)"
        }
    }
}
