import ArgumentParser
import FoundationEssentials
import JWT
import PrivateFiles
import TokenService

/// `tokenvend keys generate|jwks`: create signing keys and show the public set the server would publish.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Manage signing keys and secrets.",
        subcommands: [Generate.self, JWKS.self]
    )

    /// The `--alg` values of `keys generate`.
    enum Algorithm: String, ExpressibleByArgument, CaseIterable {
        case HS512, ES256, EdDSA
    }

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a new signing key.",
            discussion: """
                Without --alg: print a new random HS512 secret (64 random bytes, base64url, 86 characters). \
                With --alg ES256 or EdDSA: create a private key (PKCS#8 PEM), write it to --out (created with \
                mode 0600, never overwritten) or print it, and print its public JWK. With --alg HS512: the secret, \
                written to --out (0600) or printed.
                """
        )

        @Option(help: "HS512, ES256 or EdDSA.")
        var alg: Algorithm?

        @Option(help: "Key identifier for the JWK. Default: the algorithm and today's date, e.g. es256-2026-11-23.")
        var kid: String?

        @Option(help: "File to create (mode 0600) with the private key or secret.")
        var out: String?

        func run() throws {
            let algorithm = alg ?? .HS512
            if algorithm == .HS512 {
                let secret = try HMACKey.generateSecret(byteCount: 64)
                guard let out else { return print(secret) }
                try write(Array((secret + "\n").utf8), to: out)
                return
            }
            let kid = self.kid ?? Self.defaultKID(algorithm)
            let key = try JWTKey.generate(kid: kid, algorithm: algorithm == .ES256 ? .es256 : .edDSA)
            let pem = try key.privateKeyPEM()
            if let out {
                try write(Array(pem.utf8), to: out)
            } else {
                print(pem, terminator: pem.hasSuffix("\n") ? "" : "\n")
            }
            if let jwk = key.publicJWK() { print(String(decoding: jwk.serialized(), as: UTF8.self)) }
        }

        private func write(_ bytes: [UInt8], to path: String) throws {
            do {
                try PrivateFile.create(at: path, contents: bytes)
            } catch {
                throw JWTCommand.Support.usageError("cannot create --out \(path): \(error)")
            }
        }

        static func defaultKID(_ algorithm: Algorithm) -> String {
            // yyyy-MM-dd in UTC, as the ISO 8601 style writes a date.
            algorithm.rawValue.lowercased() + "-" + Date().formatted(.iso8601.year().month().day())
        }
    }

    struct JWKS: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "jwks",
            abstract: "Print the public key set /.well-known/jwks.json would serve with this configuration.",
            discussion: "The configuration is layered as for serve: the file, then TOKENVEND_* variables."
        )

        @Option(help: "Configuration file. Default: Config/tokenvend.json when present.")
        var config: String?

        func run() throws {
            do {
                let loaded = try ConfigurationLoader.resolve(
                    configPath: config, environment: ProcessInfo.processInfo.environment)
                print(String(decoding: try loaded.configuration.accessToken.publishedKeySet(), as: UTF8.self))
            } catch {
                throw JWTCommand.Support.usageError("\(error)")
            }
        }
    }
}
