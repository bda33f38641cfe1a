// Micro-benchmarks for the JWT hot paths: `swift build -c release --product tokenvend-bench` then run it.
// Prints nanoseconds per operation (best of 20 rounds of 50 000) for raw HMAC-SHA512, HS512 sign and HS512 verify.
import COpenSSL
import Cryptography
import Dispatch
import FoundationEssentials
import JWT
import StrictJSON

/// Runs `body` `iterations` times per round and returns the best round's nanoseconds per call.
/// With an argument, only benchmarks whose name contains it run (e.g. `tokenvend-bench verify`).
func measure(_ name: String, iterations: Int = 50_000, rounds: Int = 20, _ body: () throws -> Void) rethrows {
    if CommandLine.arguments.count > 1, !name.contains(CommandLine.arguments[1]) { return }
    var best = Double.infinity
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<iterations { try body() }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
        best = min(best, elapsed / Double(iterations))
    }
    let padded = name + String(repeating: " ", count: max(1, 36 - name.count))
    print("\(padded)\(Int(best.rounded())) ns/op")
}

let secret = Array("bench-secret-bench-secret-bench-secret-bench-secret-bench-secret!".utf8)
let key = try HMACKey(kid: "k1", algorithm: .hs512, secret: secret)
let keys = try JWTKeySet(keys: [key], signingKID: "k1")
let signer = keys.signer(header: .standard(type: "at+jwt"))
let now: Int64 = 1_763_000_000
// About 150 bytes of access-token claims.
let claims: JWTClaims = [
    "iss": "tokenvend", "aud": "tokenvend", "sub": "u-8d2f6c1e", "sid": "s-41c9e2", "iat": .integer(now),
    "exp": .integer(now + 900), "jti": "j-7f3a9b", "email": "ada@example.com", "role": "user", "tenantId": nil,
]
let token = try signer.sign(claims)
let message = Array(token.utf8.prefix(upTo: token.utf8.lastIndex(of: UInt8(ascii: ".")) ?? token.utf8.endIndex))
let mac = try Cryptography.HMAC(algorithm: .sha512, key: secret)
let options = VerificationOptions(now: .init(timeIntervalSince1970: Double(now + 10)), type: "at+jwt")
print("claims \(claims.object.serialized().count) bytes, token \(token.utf8.count) bytes")

var sink = 0
try measure("HMAC-SHA512 raw (signing input)") { sink &+= try mac.authenticationCode(for: message).count }
// OpenSSL's one-shot HMAC(): derives the key pads on every call, as a naive implementation would.
measure("HMAC-SHA512 one-shot OpenSSL HMAC()") {
    var length: UInt32 = 0
    var out = [UInt8](repeating: 0, count: 64)
    _ = HMAC(EVP_sha512(), secret, Int32(secret.count), message, message.count, &out, &length)
    sink &+= Int(length)
}
try measure("HS512 sign") { sink &+= try signer.sign(claims).utf8.count }
try measure("HS512 verify (with claims decode)") {
    sink &+= try keys.verify(token, options: options).object.count
}
if sink == 42 { print("") }
