import ArgumentParser
import Cryptography
import FoundationEssentials
import JWT
import StrictJSON
import UnicodeText

/// `tokenvend jwt sign|verify|decode`: work with JSON Web Tokens from the shell: HS256/384/512 with a secret file,
/// and verification of ES256, EdDSA and RS256 tokens against a JWK Set (`verify --jwks`).
///
/// Exit codes: 0 success, 1 a token failed verification or could not be decoded, 2 a usage error (bad option value,
/// unreadable or weak secret, claims that are not a JSON object).
struct JWTCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jwt",
        abstract: "Sign, verify and decode JSON Web Tokens (HS256/384/512; verify also ES256/EdDSA/RS256 via --jwks).",
        subcommands: [Sign.self, Verify.self, Decode.self]
    )

    /// The `--alg` values.
    enum Algorithm: String, ExpressibleByArgument, CaseIterable {
        case HS256, HS384, HS512

        var jwt: JWTAlgorithm {
            switch self {
            case .HS256: .hs256
            case .HS384: .hs384
            case .HS512: .hs512
            }
        }
    }

    struct Sign: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a token signed with the secret; the header is {\"alg\",\"typ\":\"JWT\",\"kid\"}."
        )

        @Option(help: "File whose trimmed contents, as UTF-8 bytes, are the secret.")
        var secretFile: String

        @Option(help: "Key identifier written to the header.")
        var kid: String

        @Option(help: "Signing algorithm.")
        var alg: Algorithm = .HS512

        @Option(help: "The claims, a JSON object, e.g. '{\"sub\":\"u1\",\"exp\":1900000000}'.")
        var claims: String

        func run() throws {
            let key = try Support.make(kid: kid, algorithm: alg.jwt, secretFile: secretFile)
            let object: JSONObject
            do {
                guard let parsed = try JSONValue.parse(Array(claims.utf8)).objectValue else {
                    throw Support.usageError("--claims must be a JSON object")
                }
                object = parsed
            } catch let error as StrictJSONError {
                // The text as it was when the JSON parser reported JWTError.malformed.
                throw Support.usageError("--claims is not valid JSON (malformed token: \(error))")
            }
            let keys = try JWTKeySet(keys: [key], signingKID: kid)
            print(try keys.sign(JWTClaims(object), header: .standard(type: "JWT")))
        }
    }

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Verify a token; print its payload JSON and exit 0, or print why and exit 1.",
            discussion: """
                exp is required. With --secret-file: with --kid the token's kid must match; without it any or no \
                kid is accepted. With --jwks (a JWK Set file, or an https URL, or http to a loopback address): the \
                token's kid picks the key, whose alg must be the header's; --alg is not used. Keys of the set that \
                cannot verify here (use "enc", ES384, PS256, RSA-OAEP, another curve…) are skipped with a note on \
                stderr; a key without kid is used only when it is the only usable one. A URL is fetched by the \
                server's JWKS fetcher with a 10-second deadline, at most 64 KiB, and no redirect followed.
                """
        )

        @Option(help: "File whose trimmed contents, as UTF-8 bytes, are the secret.")
        var secretFile: String?

        @Option(help: "A JWK Set to verify against: a file path or an http(s) URL.")
        var jwks: String?

        @Option(help: "The algorithm the token must use.")
        var alg: Algorithm = .HS512

        @Option(help: "The kid the token must carry.")
        var kid: String?

        @Argument(help: "The compact token.")
        var token: String

        func run() async throws {
            switch (secretFile, jwks) {
            case (let secretFile?, nil): try verify(secretFile: secretFile)
            case (nil, let jwks?): try await JWKSVerification.verify(token, against: jwks, kid: kid)
            default: throw Support.usageError("give exactly one of --secret-file and --jwks")
            }
        }

        private func verify(secretFile: String) throws {
            let keyID: String
            let requireKeyID: Bool
            if let kid {
                (keyID, requireKeyID) = (kid, true)
            } else {
                // Any kid (or none) is accepted: name the single key after whatever the token says.
                let header: JSONObject
                do {
                    header = try JWTKeySet.decode(token).header
                } catch {
                    throw Support.failure("invalid token: \(error)")
                }
                keyID = header["kid"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? "default"
                requireKeyID = false
            }
            let key = try Support.make(kid: keyID, algorithm: alg.jwt, secretFile: secretFile)
            let keys = try JWTKeySet(keys: [key], signingKID: keyID)
            do {
                let claims = try keys.verify(token, options: VerificationOptions(requireKeyID: requireKeyID))
                print(claims.object.jsonString)
            } catch {
                throw Support.failure("invalid token: \(error)")
            }
        }
    }

    struct Decode: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print {\"header\":…,\"payload\":…} of a token WITHOUT verifying it."
        )

        @Argument(help: "The compact token.")
        var token: String

        func run() throws {
            do {
                let (header, payload) = try JWTKeySet.decode(token)
                let both: JSONValue = ["header": .object(header), "payload": .object(payload)]
                print(both.jsonString)
            } catch {
                throw Support.failure("cannot decode token: \(error)")
            }
        }
    }
}

extension JWTCommand {
    /// Reading secrets and the exit-code conventions of the subcommands.
    enum Support {
        /// A key from the trimmed UTF-8 contents of `secretFile`; usage errors (exit 2) when unreadable or too short.
        static func make(kid: String, algorithm: JWTAlgorithm, secretFile: String) throws -> HMACKey {
            let contents: String
            do {
                contents = try String(contentsOfFile: secretFile, encoding: .utf8)
            } catch {
                throw usageError("cannot read --secret-file \(secretFile)")
            }
            let secret = UnicodeText.trimmingWhitespaceAndNewlines(contents)
            do {
                return try HMACKey(kid: kid, algorithm: algorithm, secret: secret)
            } catch .weakKey {
                throw usageError(
                    "the secret must be at least \(algorithm.hash.outputByteCount) bytes for \(algorithm.name)")
            } catch {
                throw usageError("unusable key: \(error)")
            }
        }

        /// Prints `message` to standard error and returns exit code 2.
        static func usageError(_ message: String) -> ExitCode {
            printError("Error: \(message)")
            return ExitCode(2)
        }

        /// Prints `message` to standard error and returns exit code 1.
        static func failure(_ message: String) -> ExitCode {
            printError(message)
            return ExitCode(1)
        }

        private static func printError(_ message: String) {
            TerminalIO.writeStandardError(message)
        }
    }
}
