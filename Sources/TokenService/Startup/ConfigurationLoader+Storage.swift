import PostgresStore
import SQLiteStore
import Store

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ConfigurationLoader {
    /// Name of the development key file, stored in the database folder.
    public static let developmentKeyFileName = "tokenvend-keys.json"

    /// Creates the database folder (mode 0700) when missing, checks that it is writable, notes an existing database,
    /// `-wal`/`-shm`/`-commits` file or folder that others may read (``ConfigurationNote/storageReadableByOthers``), and fills in missing
    /// access-token keys and refresh secret from the development key file beside the database, generating and
    /// storing them (mode 0600) on first use.
    /// - Returns: the completed configuration and notes to log at warning level.
    /// - Throws: ``ConfigurationError/storage(key:reason:)`` naming `database.path` when the folder cannot be
    ///   created or written, or the key file cannot be read or written.
    ///
    /// With `database.url` (a shared PostgreSQL database) there is no folder to prepare, and missing keys are an
    /// error naming them (``refuseDevelopmentKeysOnSharedDatabase(_:)``): per-host generated keys would make
    /// every instance refuse the others' tokens.
    public static func prepareStorage(
        _ configuration: TokenServiceConfiguration
    ) throws(ConfigurationError) -> (TokenServiceConfiguration, [ConfigurationNote]) {
        var configuration = configuration
        if !configuration.postgres.url.isEmpty {
            try refuseDevelopmentKeysOnSharedDatabase(configuration)
            return (configuration, [])
        }
        let folder = try prepareDatabaseFolder(configuration.database.path)
        var notes = permissiveStorage(database: configuration.database.path, folder: folder)
        let needsAccessKey = configuration.accessToken.keys.isEmpty
        let needsRefreshSecret = configuration.refreshToken.secret == nil
        let needsNonceSecret = configuration.dpop.requireNonce && configuration.dpop.nonceSecret == nil
        guard needsAccessKey || needsRefreshSecret || needsNonceSecret else { return (configuration, notes) }

        let path = folder == "/" ? "/" + developmentKeyFileName : folder + "/" + developmentKeyFileName
        var keys = try ConfigurationDevelopmentKeys.read(from: path) ?? ConfigurationDevelopmentKeys()
        let existed = keys.accessToken != nil || keys.refreshToken != nil
        var changed = false
        if needsAccessKey, keys.accessToken == nil {
            keys.accessToken = .init(
                kid: "dev-" + (try ConfigurationDevelopmentKeys.randomHex(bytes: 4)),
                secret: try ConfigurationDevelopmentKeys.randomSecret())
            changed = true
        }
        if needsRefreshSecret, keys.refreshToken == nil {
            keys.refreshToken = .init(secret: try ConfigurationDevelopmentKeys.randomSecret())
            changed = true
        }
        if needsNonceSecret, keys.dpop == nil {
            keys.dpop = .init(nonceSecret: try ConfigurationDevelopmentKeys.randomSecret())
            changed = true
        }
        if changed { try keys.write(to: path) }
        notes.append(changed ? .developmentKeysGenerated(path: path) : .developmentKeysReused(path: path))
        if existed, let mode = ConfigurationDevelopmentKeys.permissiveMode(of: path) {
            notes.append(.developmentKeysReadableByOthers(path: path, mode: mode))
        }

        if needsAccessKey, let access = keys.accessToken {
            let key = TokenServiceConfiguration.SigningKey(kid: access.kid, secret: .init(access.secret))
            try checkStrength(key.secret, key: "accessToken.keys (\(path))")
            configuration.accessToken.keys = [key]
            configuration.accessToken.activeKid = key.kid
        }
        if needsRefreshSecret, let refresh = keys.refreshToken {
            let secret = TokenServiceConfiguration.Secret(refresh.secret)
            try checkStrength(secret, key: "refreshToken.secret (\(path))")
            configuration.refreshToken.secret = secret
        }
        if needsNonceSecret, let dpop = keys.dpop {
            let secret = TokenServiceConfiguration.Secret(dpop.nonceSecret)
            try checkStrength(secret, key: "dpop.nonceSecret (\(path))")
            configuration.dpop.nonceSecret = secret
        }
        return (configuration, notes)
    }

    /// Notes for the database folder and the existing database, `-wal`, `-shm` and `-commits` files that group or other users
    /// may access (tokenvend creates them 0700 and 0600; an older version, a copy or a restore may not have).
    static func permissiveStorage(database: String, folder: String) -> [ConfigurationNote] {
        var notes: [ConfigurationNote] = []
        if let mode = ConfigurationDevelopmentKeys.permissiveMode(of: folder) {
            notes.append(.storageReadableByOthers(path: folder, mode: mode, expected: "0700"))
        }
        for path in [database, database + "-wal", database + "-shm", database + "-commits"] {
            guard let mode = ConfigurationDevelopmentKeys.permissiveMode(of: path) else { continue }
            notes.append(.storageReadableByOthers(path: path, mode: mode, expected: "0600"))
        }
        return notes
    }

    /// Creates the folder of `databasePath` when missing and proves it writable by creating and removing a probe
    /// file. Returns the folder.
    static func prepareDatabaseFolder(_ databasePath: String) throws(ConfigurationError) -> String {
        let folder: String
        if let slash = databasePath.lastIndex(of: "/") {
            let prefix = String(databasePath[..<slash])
            folder = prefix.isEmpty ? "/" : prefix
        } else {
            folder = "."
        }
        var isDirectory = false
        if FileManager.default.fileExists(atPath: databasePath, isDirectory: &isDirectory), isDirectory {
            throw .storage(key: "database.path", reason: "\"\(databasePath)\" is a folder, not a database file")
        }
        if !FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
            do {
                try ConfigurationDevelopmentKeys.createFolders(folder)
            } catch {
                throw .storage(key: "database.path", reason: "cannot create folder \"\(folder)\" (\(error.reason))")
            }
        } else if !isDirectory {
            throw .storage(key: "database.path", reason: "\"\(folder)\" is not a folder")
        }
        let probe = folder + "/.tokenvend-probe-" + (try ConfigurationDevelopmentKeys.randomHex(bytes: 8))
        do {
            try ConfigurationDevelopmentKeys.createExclusively(probe, contents: [])
            try ConfigurationDevelopmentKeys.remove(probe)
        } catch {
            throw .storage(key: "database.path", reason: "folder \"\(folder)\" is not writable (\(error.reason))")
        }
        return folder
    }
}

extension Error {
    /// A one-line reason without the multi-line detail some Foundation errors carry.
    var shortReason: String {
        let text = String(describing: self)
        return String(text.split(whereSeparator: \.isNewline).first ?? "unknown error").prefix(160).description
    }
}
