import ArgumentParser
import FoundationEssentials
import IdentityProviders
import JWT
import StrictJSON

/// `tokenvend jwt verify --jwks FILE|URL`: verifies a token against a JWK Set, as any third-party verifier would.
enum JWKSVerification {
    /// Prints the payload JSON of `token` when a key of the set named by `source` verifies it.
    ///
    /// Keys of the set that cannot verify here (`use:"enc"`, ES384, PS256, RSA-OAEP, another curve…) are skipped
    /// with a note on standard error (RFC 7517 §5); only a set with no usable key at all is refused.
    /// - Throws: exit 1 when the token is refused, exit 2 when the set cannot be read or has no usable key.
    static func verify(_ token: String, against source: String, kid: String?) async throws {
        let verifier: JWTKeySet
        let skipped: [SkippedJWK]
        do {
            (verifier, skipped) = try JWTKeySet.verifying(jwks: try await load(source))
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw JWTCommand.Support.usageError("--jwks \(source) is not a usable JWK Set: \(error)")
        }
        for key in skipped {
            TerminalIO.writeStandardError("note: --jwks \(source): skipped \(key)")
        }
        do {
            if let kid {
                let header = try JWTKeySet.decode(token).header
                guard header["kid"]?.stringValue == kid else { throw JWTError.unknownKeyID }
            }
            let options = VerificationOptions(requireKeyID: verifier.keys.count != 1)
            let claims = try verifier.verify(token, options: options)
            print(claims.object.jsonString)
        } catch {
            throw JWTCommand.Support.failure("invalid token: \(error)")
        }
    }

    /// The bytes of a file, or of an `https` URL (or `http` to a loopback address), at most
    /// `JWKSet.maximumByteCount`.
    static func load(_ source: String) async throws -> [UInt8] {
        guard source.hasPrefix("http://") || source.hasPrefix("https://") else {
            guard let data = FileManager.default.contents(atPath: source) else {
                throw JWTCommand.Support.usageError("cannot read --jwks \(source)")
            }
            return Array(data)
        }
        do throws(JWKSFetchError) {
            return try await fetch(source)
        } catch {
            throw JWTCommand.Support.usageError("--jwks \(source): \(message(error))")
        }
    }

    /// The command's deadline for a key download: 10 seconds, connection included.
    static let timeoutSeconds: Double = 10

    /// The body of a 200 answer to `GET source`, fetched by the server's JWKS fetcher (`CurlJWKSFetcher`: the
    /// outbound URL rule, no redirect followed, at most 64 KiB while reading) with ``timeoutSeconds``.
    static func fetch(_ source: String, timeout: Double = timeoutSeconds) async throws(JWKSFetchError) -> [UInt8] {
        try await CurlJWKSFetcher(timeout: timeout, connectTimeout: timeout).fetch(source).body
    }

    /// What the command says about a failed download; names the rule, never a body.
    static func message(_ error: JWKSFetchError) -> String {
        switch error {
        case .insecureURL: "must be an https URL (http only to a loopback address)"
        case .tooLarge: "larger than \(CurlJWKSFetcher.maximumBodyBytes) bytes"
        case .timedOut: "no complete answer in time"
        case .status(let status): "HTTP status \(status)"
        case .unreachable(let reason): "cannot fetch: \(reason)"
        }
    }
}
