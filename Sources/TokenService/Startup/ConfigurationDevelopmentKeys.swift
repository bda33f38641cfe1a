import Cryptography
import PrivateFiles

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The development key file beside the database:
/// `{"accessToken": {"kid", "secret"}, "refreshToken": {"secret"}, "dpop": {"nonceSecret"}}` (`dpop` only once
/// `dpop.requireNonce` asked for it), mode 0600, replaced atomically.
struct ConfigurationDevelopmentKeys: Codable, Equatable {
    struct AccessToken: Codable, Equatable {
        var kid: String
        var secret: String
    }

    struct RefreshToken: Codable, Equatable {
        var secret: String
    }

    struct DPoP: Codable, Equatable {
        var nonceSecret: String
    }

    var accessToken: AccessToken?
    var refreshToken: RefreshToken?
    var dpop: DPoP?

    /// A failed system call: the call and `strerror(errno)`.
    struct SystemError: Error {
        var reason: String

        init(_ call: String) {
            let code = errno
            reason = "\(call): \(String(cString: strerror(code)))"
        }
    }

    /// Reads the key file; `nil` when it does not exist.
    /// - Throws: ``ConfigurationError/storage(key:reason:)`` when it exists but cannot be read or parsed.
    static func read(from path: String) throws(ConfigurationError) -> ConfigurationDevelopmentKeys? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .storage(key: "database.path", reason: "cannot read development key file \"\(path)\"")
        }
        do {
            return try JSONDecoder().decode(ConfigurationDevelopmentKeys.self, from: data)
        } catch {
            throw .storage(
                key: "database.path",
                reason: "development key file \"\(path)\" is not valid; delete it to generate new keys")
        }
    }

    /// Writes the file atomically (``PrivateFile/writeAtomically(_:to:)``): a temporary file created with mode
    /// 0600 in the same folder, flushed, then renamed over `path`.
    func write(to path: String) throws(ConfigurationError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            let data = try encoder.encode(self)
            try PrivateFile.writeAtomically(Array(data) + [UInt8(ascii: "\n")], to: path)
        } catch {
            let reason = (error as? PrivateFilesError)?.description ?? error.shortReason
            throw .storage(key: "database.path", reason: "cannot write development key file \"\(path)\" (\(reason))")
        }
    }

    /// Creates `path` (which must not exist) with mode 0600, writes `contents` and flushes them to disk.
    static func createExclusively(_ path: String, contents: [UInt8]) throws(SystemError) {
        do {
            try PrivateFile.create(at: path, contents: contents)
        } catch {
            errno = error.code
            throw SystemError(error.call.rawValue)
        }
    }

    /// Creates `path` and any missing parent folders with mode 0700, exactly, whatever the umask
    /// (``PrivateFolder/create(_:privateParents:)``); existing folders are left as they are.
    static func createFolders(_ path: String) throws(SystemError) {
        do {
            try PrivateFolder.create(path)
        } catch {
            errno = error.code
            throw SystemError(error.call.rawValue)
        }
    }

    static func remove(_ path: String) throws(SystemError) {
        guard unlink(path) == 0 else { throw SystemError("unlink") }
    }

    /// The file's permission bits in octal when group or others have any access, else `nil`.
    static func permissiveMode(of path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & 0o077 != 0 else { return nil }
        return "0" + String(info.st_mode & 0o777, radix: 8)
    }

    /// 64 random bytes from `SecureRandom`, base64url-encoded without padding (86 characters).
    /// - Throws: ``ConfigurationError/storage(key:reason:)`` when the generator fails.
    static func randomSecret() throws(ConfigurationError) -> String {
        do {
            return try SecureRandom.base64URL(byteCount: 64)
        } catch {
            throw .storage(key: "database.path", reason: "cannot generate a development key (\(error))")
        }
    }

    /// `count` random bytes from `SecureRandom` as lowercase hex, for unique names.
    /// - Throws: ``ConfigurationError/storage(key:reason:)`` when the generator fails.
    static func randomHex(bytes count: Int) throws(ConfigurationError) -> String {
        do {
            return try SecureRandom.hex(byteCount: count)
        } catch {
            throw .storage(key: "database.path", reason: "cannot generate a random name (\(error))")
        }
    }
}
