import JWT
import Testing

/// `JWTKey(signingMaterial:kid:algorithm:)`, the one loader behind `accessToken.keys` and `vendors.<name>.keys`,
/// fed directly: what loads, and the problem (and the operator's reason) for each kind of unusable material.
@Suite struct SigningMaterialTests {
    /// Key material for the table, made or copied when a case runs.
    enum Material: String, Sendable, CustomStringConvertible {
        case secret32, secret31, secret48, secret47, secret64, secret63
        case p256PEM, ed25519PEM, p256PrivateJWK, ed25519PrivateJWK, p256PublicJWK, p256PublicPEM, p256JWKForECDH
        case rsaPKCS1PEM, rsaPrivateJWK, garbage, brokenPEM

        var description: String { rawValue }

        func text() throws -> String {
            switch self {
            case .secret32: String(repeating: "s", count: 32)
            case .secret31: String(repeating: "s", count: 31)
            case .secret48: String(repeating: "s", count: 48)
            case .secret47: String(repeating: "s", count: 47)
            case .secret64: String(repeating: "s", count: 64)
            case .secret63: String(repeating: "é", count: 31) + "s"  // 63 UTF-8 bytes from 32 characters
            case .p256PEM: try JWTKey.generate(kid: "g", algorithm: .es256).privateKeyPEM()
            case .ed25519PEM: try JWTKey.generate(kid: "g", algorithm: .edDSA).privateKeyPEM()
            case .p256PrivateJWK: RFCVectors.a3JWK
            case .ed25519PrivateJWK: RFCVectors.ed25519JWK
            case .p256PublicJWK:
                #"{"kty":"EC","crv":"P-256","x":"\#(JWKTests.p256X)","y":"\#(JWKTests.p256Y)"}"#
            case .p256PublicPEM: Self.publicPEM
            case .p256JWKForECDH: #"{"alg":"ECDH-ES","# + RFCVectors.a3JWK.dropFirst()
            case .rsaPKCS1PEM: "-----BEGIN RSA PRIVATE KEY-----\nMIIBOwIBAAJBALpI9k1n\n-----END RSA PRIVATE KEY-----\n"
            case .rsaPrivateJWK: RFCVectors.a2JWK
            case .garbage: "not a key at all"
            case .brokenPEM: "-----BEGIN PRIVATE KEY-----\nAAAAAAAA\n-----END PRIVATE KEY-----\n"
            }
        }

        /// An SPKI P-256 public key made with `openssl ec -pubout`.
        static let publicPEM = """
            -----BEGIN PUBLIC KEY-----
            MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEFRoGmFqpjpYuzQU03xz1Acct/8FM
            p5F0OYXQfKG/Nl/L/qu3T0MRc4np1HCqGTzWP2HYsA1h45lSGuKNzp71pQ==
            -----END PUBLIC KEY-----
            """
    }

    @Test(
        "material that fits the algorithm loads as a signing key under the configured kid",
        arguments: [
            (JWTAlgorithm.hs256, Material.secret32), (.hs384, .secret48), (.hs512, .secret64), (.es256, .p256PEM),
            (.edDSA, .ed25519PEM), (.es256, .p256PrivateJWK), (.edDSA, .ed25519PrivateJWK),
        ])
    func loads(algorithm: JWTAlgorithm, material: Material) throws {
        let key = try JWTKey(signingMaterial: try material.text(), kid: "k1", algorithm: algorithm)
        #expect(key.kid == "k1")
        #expect(key.algorithm == algorithm)
        #expect(key.canSign)
        let set = try JWTKeySet(keys: [key], signingKID: "k1")
        let token = try set.sign(Fixture.claims)
        #expect(try set.verify(token, options: Fixture.options()) == Fixture.claims)
    }

    @Test(
        "unusable material is refused with the problem that names why",
        arguments: [
            (JWTAlgorithm.hs256, Material.secret31, SigningKeyProblem.secretTooShort(minimumBytes: 32)),
            (.hs384, .secret47, .secretTooShort(minimumBytes: 48)),
            (.hs512, .secret63, .secretTooShort(minimumBytes: 64)),
            (.es256, .ed25519PEM, .unusable("invalid key: key type or curve does not match the algorithm")),
            (.edDSA, .p256PEM, .unusable("invalid key: key type or curve does not match the algorithm")),
            (.es256, .p256JWKForECDH, .keyTypeMismatch),
            (.edDSA, .p256PrivateJWK, .unusable("invalid key: alg does not match kty or crv")),
            (.es256, .rsaPKCS1PEM, .rsaKey),
            (.es256, .rsaPrivateJWK, .rsaKey),
            (.rs256, .p256PEM, .rsaKey),
            (.es256, .p256PublicJWK, .publicJWK),
            (.es256, .p256PublicPEM, .publicKey),
            (.edDSA, .garbage, .notPEMOrJWK),
            (.es256, .secret64, .notPEMOrJWK),
        ])
    func refuses(algorithm: JWTAlgorithm, material: Material, problem: SigningKeyProblem) throws {
        #expect(throws: JWTError.unusableSigningKey(algorithm, problem)) {
            try JWTKey(signingMaterial: try material.text(), kid: "k1", algorithm: algorithm)
        }
    }

    @Test("a broken PEM body, an empty kid and a JWK naming another kid are refused with the library's reason")
    func unusable() throws {
        let broken = #expect(throws: JWTError.self) {
            try JWTKey(signingMaterial: try Material.brokenPEM.text(), kid: "k1", algorithm: .edDSA)
        }
        guard case .unusableSigningKey(.edDSA, .unusable(let reason)) = broken else {
            Issue.record("expected .unusable, got \(String(describing: broken))")
            return
        }
        #expect(reason.hasPrefix("invalid key: "))
        #expect(throws: JWTError.unusableSigningKey(.hs512, .unusable("empty or duplicate kid in key set"))) {
            try JWTKey(signingMaterial: try Material.secret64.text(), kid: "", algorithm: .hs512)
        }
        let named = #"{"kid":"other","# + RFCVectors.ed25519JWK.dropFirst()
        #expect(
            throws: JWTError.unusableSigningKey(.edDSA, .unusable("invalid key: kid does not match the JWK's kid"))
        ) { try JWTKey(signingMaterial: named, kid: "k1", algorithm: .edDSA) }
    }

    @Test("each problem reads as the one-line reason operators see, for accessToken.keys and vendor keys alike")
    func reasons() {
        let reasons: [(JWTError, String)] = [
            (
                .unusableSigningKey(.hs256, .secretTooShort(minimumBytes: 32)),
                "shorter than 32 bytes, the least HS256 takes (counted as UTF-8)"
            ),
            (
                .unusableSigningKey(.es256, .notPEMOrJWK),
                "expected a PEM private key (-----BEGIN PRIVATE KEY-----) or a private JWK object"
            ),
            (.unusableSigningKey(.es256, .rsaKey), "RSA keys are not allowed for signing; use an ES256 or EdDSA key"),
            (.unusableSigningKey(.edDSA, .publicJWK), "the JWK is a public key; give the private JWK (with d)"),
            (
                .unusableSigningKey(.es256, .publicKey),
                "a public key cannot sign; give the private key (PKCS#8 PEM or a JWK with d)"
            ),
            (
                .unusableSigningKey(.edDSA, .keyTypeMismatch),
                "not a usable EdDSA private key: its key type or curve does not fit EdDSA"
            ),
            (
                .unusableSigningKey(.es256, .unusable("invalid key: x")),
                "not a usable ES256 private key: invalid key: x"
            ),
            (.unusableSigningKey(.hs512, .unusable("OpenSSL failure")), "unusable HS512 secret (OpenSSL failure)"),
        ]
        for (error, reason) in reasons { #expect(error.description == reason) }
    }

    @Test("no reason shows the key material it refused", arguments: [Material.secret31, .p256PublicJWK, .brokenPEM])
    func neverEchoed(material: Material) throws {
        let text = try material.text()
        let error = #expect(throws: JWTError.self) {
            try JWTKey(signingMaterial: text, kid: "k1", algorithm: material == .secret31 ? .hs256 : .es256)
        }
        let description = error.map(String.init(describing:)) ?? ""
        #expect(!description.isEmpty)
        #expect(!description.contains(JWKTests.p256X) && !description.contains("AAAAAAAA"))
        #expect(!description.contains(String(repeating: "s", count: 8)))
    }
}
