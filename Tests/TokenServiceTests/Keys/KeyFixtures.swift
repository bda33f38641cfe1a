import Foundation
import JWT

/// Freshly generated ES256/EdDSA keys and the `TOKENVEND_ACCESS_TOKEN_KEYS` JSON that configures them.
enum KeyFixtures {
    /// One configured key: its `kid`, algorithm, state and the `JWTKey` (private) behind it.
    struct Entry {
        let key: JWTKey
        let state: String

        /// `{"kid","alg","privateKey","state"}` for an asymmetric key.
        func json() throws -> [String: String] {
            ["kid": key.kid, "alg": key.algorithm.name, "privateKey": try key.privateKeyPEM(), "state": state]
        }
    }

    static let hmacSecret = String(repeating: "ring-test-secret-", count: 5)

    /// A new private key.
    static func generate(_ kid: String, _ algorithm: JWTAlgorithm, state: String) throws -> Entry {
        Entry(key: try JWTKey.generate(kid: kid, algorithm: algorithm), state: state)
    }

    /// The environment configuring `entries` (plus HS512 entries given as `(kid, state)`).
    static func environment(_ entries: [Entry], hmac: [(kid: String, state: String)] = []) throws -> [String: String] {
        var list: [[String: String]] = try entries.map { try $0.json() }
        list += hmac.map { ["kid": $0.kid, "secret": hmacSecret, "state": $0.state] }
        let data = try JSONSerialization.data(withJSONObject: list, options: [.sortedKeys])
        return ["TOKENVEND_ACCESS_TOKEN_KEYS": String(decoding: data, as: UTF8.self)]
    }

    /// A single current key of `algorithm`.
    static func single(_ algorithm: JWTAlgorithm) -> [String: String] {
        (try? environment([generate("only-\(algorithm.name)", algorithm, state: "current")])) ?? [:]
    }
}
