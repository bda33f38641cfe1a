// Micro-benchmarks for the JWT hot paths: `swift build -c release --product tokenvend-bench` then run it.
// Prints nanoseconds per operation (best of several rounds) for raw HMAC-SHA512, HS512 sign and verify, and for
// ES256 and EdDSA the raw primitive and the whole access-token JWT, RS256 ID-token verification with a warm key cache
// (IDTokenBench.swift), then `openssl speed` on the same machine for
// comparison (skipped with `--no-openssl`). With an argument, only benchmarks whose name contains it run.
import COpenSSL
import CSodium
import Cryptography
import Dispatch
import Foundation
import JWT
import Logging
import StrictJSON
import StructuredLogging

let filter = CommandLine.arguments.dropFirst().first { !$0.hasPrefix("--") }

/// Runs `body` `iterations` times per round and returns the best round's nanoseconds per call.
@discardableResult
func measure(
    _ name: String, iterations: Int = 50_000, rounds: Int = 20, _ body: () throws -> Void
) rethrows -> Double? {
    if let filter, !name.contains(filter) { return nil }
    var best = Double.infinity
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<iterations { try body() }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
        best = min(best, elapsed / Double(iterations))
    }
    let padded = name + String(repeating: " ", count: max(1, 44 - name.count))
    print("\(padded)\(Int(best.rounded())) ns/op")
    return best
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

// Asymmetric: the raw primitive on the signing input of an access token, then the whole JWT.
var results: [String: Double] = [:]
for algorithm in [JWTAlgorithm.es256, .edDSA] {
    let jwtKey = try JWTKey.generate(kid: "a1", algorithm: algorithm)
    let set = try JWTKeySet(keys: [jwtKey], signingKID: "a1")
    let verifier = try JWTKeySet(keys: [JWTKey(jwk: jwtKey.publicJWK() ?? JWK(kty: ""))], signingKID: nil)
    let asymmetricSigner = set.signer(header: .standard(type: "at+jwt"))
    let asymmetricToken = try asymmetricSigner.sign(claims)
    let input = Array(asymmetricToken.utf8.prefix(asymmetricToken.utf8.count - 87))
    let raw = try AsymmetricKey(pem: jwtKey.privateKeyPEM(), algorithm: algorithm.asymmetric ?? .ed25519)
    let rawPublic = try raw.publicKey
    let signature = try raw.signature(for: input)
    let name = algorithm.name
    results["\(name) sign"] = try measure("\(name) sign raw (signing input)", iterations: 2_000, rounds: 5) {
        sink &+= try raw.signature(for: input).count
    }
    results["\(name) verify"] = try measure("\(name) verify raw (signing input)", iterations: 2_000, rounds: 5) {
        sink &+= try rawPublic.isValidSignature(signature, for: input) ? 1 : 0
    }
    try measure("\(name) sign JWT (access token)", iterations: 2_000, rounds: 5) {
        sink &+= try asymmetricSigner.sign(claims).utf8.count
    }
    try measure("\(name) verify JWT (with claims decode)", iterations: 2_000, rounds: 5) {
        sink &+= try verifier.verify(asymmetricToken, options: options).object.count
    }
}

// Ed25519 through libsodium, to compare with OpenSSL's (the library uses whichever is faster: see DESIGN.md).
if sodium_init() >= 0 {
    var publicKey = [UInt8](repeating: 0, count: 32)
    var secretKey = [UInt8](repeating: 0, count: 64)
    _ = crypto_sign_keypair(&publicKey, &secretKey)
    var signature = [UInt8](repeating: 0, count: 64)
    measure("EdDSA sign raw libsodium", iterations: 2_000, rounds: 5) {
        _ = crypto_sign_detached(&signature, nil, message, UInt64(message.count), secretKey)
        sink &+= Int(signature[0])
    }
    measure("EdDSA verify raw libsodium", iterations: 2_000, rounds: 5) {
        sink &+= Int(crypto_sign_verify_detached(signature, message, UInt64(message.count), publicKey))
    }
}

/// `openssl speed -seconds 3 ecdsap256 ed25519`, converted to µs/op, beside this library's raw figures.
// The HTTP access line (once per request): the typed sorted-fields path the server used before, and the
// direct `logAccess` it uses now, both into a buffered output on /dev/null flushed every 64 lines (as the server
// flushes once per batch of socket events).
struct BenchAddress: LogTextWritable {
    func appendLogText(to bytes: inout [UInt8]) { bytes.append(contentsOf: "127.0.0.1".utf8) }
}
let devNull = open("/dev/null", O_WRONLY)
let accessOutput = LogOutput(fileDescriptor: devNull, buffered: true)
let accessHandler = StructuredLogHandler(label: "tokenvend.http", format: .json, level: .info, output: accessOutput)
var accessLines = 0
measure("access line: sorted typed fields (before)") {
    let fields: [(key: String, value: LogFieldValue)] = [
        ("client.address", .string(IPv4Text.render(0x7F00_0001))), ("http.duration_ms", .milliseconds(micros: 42)),
        ("http.method", .string("GET")), ("http.path", .string("/healthz")), ("http.status", .unsigned(200)),
        ("request.id", .string("3f2a9c1d4e5b6a70")),
    ]
    _ = accessHandler.log(level: .info, message: "request", sortedFields: fields)
    accessLines += 1
    if accessLines % 64 == 0 { accessOutput.flush() }
}
measure("access line: logAccess (now)") {
    let line = AccessLine(
        method: "GET", path: "/healthz", status: 200, requestID: "3f2a9c1d4e5b6a70", durationMicroseconds: 42)
    _ = accessHandler.logAccess(line, clientAddress: BenchAddress(), metadata: [:])
    accessLines += 1
    if accessLines % 64 == 0 { accessOutput.flush() }
}

func compareWithOpenSSLSpeed(_ results: [String: Double]) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["openssl", "speed", "-seconds", "3", "ecdsap256", "ed25519"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    do {
        try process.run()
    } catch {
        print("openssl speed: could not run openssl (\(error))")
        return
    }
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    // Result lines: " 256 bits ecdsa (nistp256)   0.0000s   0.0000s  67385.9  21768.3" (sign/s, verify/s last).
    print("\nopenssl speed -seconds 3 ecdsap256 ed25519 (µs/op) beside tokenvend raw (µs/op, ratio):")
    for (label, name) in [("nistp256", "ES256"), ("Ed25519", "EdDSA")] {
        guard let line = output.split(separator: "\n").last(where: { $0.contains(label) && $0.contains("bits") })
        else { continue }
        let fields = line.split(separator: " ").compactMap { Double($0) }
        guard fields.count >= 3 else { continue }
        let signPerSecond = fields[fields.count - 2]
        let verifyPerSecond = fields[fields.count - 1]
        for (operation, perSecond) in [("sign", signPerSecond), ("verify", verifyPerSecond)] {
            let openssl = 1e6 / perSecond
            let ours = (results["\(name) \(operation)"] ?? .nan) / 1000
            let row = "\(name) \(operation)"
            let padded = row + String(repeating: " ", count: max(1, 16 - row.count))
            print(
                "\(padded)openssl \(String(format: "%6.1f", openssl))   tokenvend \(String(format: "%6.1f", ours))"
                    + "   ×\(String(format: "%.2f", ours / openssl))")
        }
    }
}

try await IDTokenBench.run(filter: filter)

if !CommandLine.arguments.contains("--no-openssl"), filter == nil { compareWithOpenSSLSpeed(results) }
if sink == 42 { print("") }

/// IPv4 text built as a `String`, as `IPAddress.description` did for the old access path.
enum IPv4Text {
    static func render(_ value: UInt32) -> String {
        "\(value >> 24).\(value >> 16 & 0xFF).\(value >> 8 & 0xFF).\(value & 0xFF)"
    }
}
