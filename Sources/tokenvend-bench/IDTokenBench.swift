import Cryptography
import Dispatch
import Foundation
import IdentityProviders
import IdentityProvidersTesting
import JWT
import StrictJSON

/// ID-token verification (issue 17): an Apple-shaped RS256 token through `IDTokenVerifier` with a warm
/// `ProviderKeyCache` (no request is made), beside the raw RS256 check of the same signature.
enum IDTokenBench {
    /// Runs the two measurements when `filter` selects them; prints ns/op and µs per verification.
    static func run(filter: String?) async throws {
        let name = "RS256 ID token verify (IDTokenVerifier, warm key cache)"
        guard filter.map({ name.contains($0) || "RS256 verify raw".contains($0) }) ?? true else { return }
        let key = try TestRSAKey(kid: "bench-rsa")
        let fetcher = FakeJWKSFetcher()
        let provider = try IdentityProvider.apple(audiences: ["com.example.app"])
        fetcher.serve(provider.jwksURL, body: TestIDToken.jwks([key.publicJWK]))
        let verifier = IDTokenVerifier(provider: provider, keys: ProviderKeyCache(fetcher: fetcher))
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let issued = Int64(now.timeIntervalSince1970) - 10
        // About the size of a real Apple ID token's claims, with the SHA-256 nonce Apple puts in it.
        let rawNonce = "n-0S6_WzA2Mj-bench"
        let hashedNonce = try SHA256.hash(Array(rawNonce.utf8)).map { String(format: "%02x", $0) }.joined()
        let claims: JSONObject = [
            "iss": "https://appleid.apple.com", "aud": "com.example.app", "exp": .integer(issued + 600),
            "iat": .integer(issued), "sub": "001234.5e7c9f0b2a3d4c8e9f1a2b3c4d5e6f70.1234", "c_hash": "q2B1cm5lcg",
            "email": "x7k2m9p4qz@privaterelay.appleid.com", "email_verified": "true", "is_private_email": "true",
            "auth_time": .integer(issued), "nonce_supported": .bool(true), "nonce": .string(hashedNonce),
        ]
        let benchToken = try TestIDToken.rs256(claims, key: key)
        // Warms the cache: the one fetch.
        _ = try await verifier.verify(benchToken, nonce: rawNonce, now: now)

        var sink = 0
        var best = Double.infinity
        for _ in 0..<5 {
            let iterations = 2_000
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<iterations {
                sink &+= try await verifier.verify(benchToken, nonce: rawNonce, now: now).subject.utf8.count
            }
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / Double(iterations))
        }
        let padded = name + String(repeating: " ", count: max(1, 44 - name.count))
        print("\(padded)\(Int(best.rounded())) ns/op (\(String(format: "%.1f", best / 1000)) µs per verification)")
        print("  key fetches: \(fetcher.callCount) (warm cache: 1, the warm-up)")

        let parts = benchToken.split(separator: ".")
        let input = Array("\(parts[0]).\(parts[1])".utf8)
        let signature = try key.sign(input)
        let raw = try Cryptography.AsymmetricKey(rsaModulus: key.modulus, exponent: key.exponent)
        var rawBest = Double.infinity
        for _ in 0..<5 {
            let iterations = 2_000
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<iterations { sink &+= try raw.isValidSignature(signature, for: input) ? 1 : 0 }
            rawBest = min(rawBest, Double(DispatchTime.now().uptimeNanoseconds - start) / Double(iterations))
        }
        let rawName = "RS256 verify raw (signing input)"
        print("\(rawName + String(repeating: " ", count: 44 - rawName.count))\(Int(rawBest.rounded())) ns/op")
        if sink == 42 { print("") }
    }
}
