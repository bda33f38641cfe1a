import Cryptography
import FoundationEssentials
import JWT
import StrictJSON
import Testing

/// Known answers from RFC 7515 Appendix A.2 (RS256) and A.3 (ES256) and RFC 8037 Appendix A (Ed25519), copied from
/// the RFC text (the JWKs' line-broken strings joined, the compact serializations as printed).
enum RFCVectors {
    /// RFC 7515 A.2.1: the RSA key, with its private members.
    static let a2JWK = """
        {"kty":"RSA",\
        "n":"ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SFd2lZS-\
        pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2CapHg66\
        5xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ",\
        "e":"AQAB",\
        "d":"Eq5xpGnNCivDflJsRQBXHx1hdR1k6Ulwe2JZD50LpXyWPEAeP88vLNO97IjlA7_GQ5sLKMgvfTeXZx9SE-7YwVol2NXOoAJe46sui395IW_GO-p\
        WJ1O0BkTGoVEn2bKVRUCgu-GjBVaYLU6f3l9kJfFNS3E0QbVdxzubSu3Mkqzjkn439X0M_V51gfpRLI9JYanrC4D4qAdGcopV_0ZHHzQlBjudU2QvXt4e\
        hNYTCBr6XCLQUShb1juUO1ZdiYoFaFQT5Tw8bGUl_x_jTj3ccPDVZFD9pIuhLhBOneufuBiB4cS98l2SR_RQyGWSeWjnczT0QU91p1DhOVRuOopznQ",\
        "p":"4BzEEOtIpmVdVEZNCqS7baC4crd0pqnRH_5IB3jw3bcxGn6QLvnEtfdUdiYrqBdss1l58BQ3KhooKeQTa9AB0Hw_Py5PJdTJNPY8cQn7ouZ2KKDc\
        mnPGBY5t7yLc1QlQ5xHdwW1VhvKn-nXqhJTBgIPgtldC-KDV5z-y2XDwGUc",\
        "q":"uQPEfgmVtjL0Uyyx88GZFF1fOunH3-7cepKmtH4pxhtCoHqpWmT8YAmZxaewHgHAjLYsp1ZSe7zFYHj7C6ul7TjeLQeZD_YwD66t62wDmpe_HlB-\
        TnBA-njbglfIsRLtXlnDzQkv5dTltRJ11BKBBypeeF6689rjcJIDEz9RWdc",\
        "dp":"BwKfV3Akq5_MFZDFZCnW-wzl-CCo83WoZvnLQwCTeDv8uzluRSnm71I3QCLdhrqE2e9YkxvuxdBfpT_PI7Yz-FOKnu1R6HsJeDCjn12Sk3vmAkt\
        V2zb34MCdy7cpdTh_YVr7tss2u6vneTwrA86rZtu5Mbr1C1XsmvkxHQAdYo0",\
        "dq":"h_96-mK1R_7glhsum81dZxjTnYynPbZpHziZjeeHcXYsXaaMwkOlODsWa7I9xXDoRwbKgB719rrmI2oKr6N3Do9U0ajaHF-NKJnwgjMd2w9cjz3_\
        -kyNlxAr2v4IKhGNpmM5iIgOS1VZnOZ68m6_pbLBSp3nssTdlqvd0tIiTHU",\
        "qi":"IYd7DHOhrWvxkwPQsRM2tOgrjbcrfvtQJipd-DlcxyVuuM9sQLdgjVk2oy26F0EmpScGLq2MowX7fhd_QJQ3ydy5cY7YIBi87w93IKLEdfnbJtoO\
        PLUW0ITrJReOgo1cq9SbsxYawBgfp_gh6A5603k2-ZQwVK0JKSHuLFkuQ3U"}
        """

    /// RFC 7515 A.2.1: the complete JWS Compact Serialization.
    static let a2Token =
        "eyJhbGciOiJSUzI1NiJ9"
        + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
        + ".cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9uJdbF9CUAr7t1dnZcAc"
        + "QjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K0GarZRmB_eSN9383LcOLn6_dO--xi12jzDwusC-eOkHWEsqt"
        + "FZESc6BfI7noOPqvhJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWywlVmtVrBp0igcN_IoypGlUPQGe77Rw"

    /// RFC 7515 A.3.1: the P-256 key.
    static let a3JWK = """
        {"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",\
        "y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0","d":"jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI"}
        """

    /// RFC 7515 A.3.1: the complete JWS Compact Serialization.
    static let a3Token =
        "eyJhbGciOiJFUzI1NiJ9"
        + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
        + ".DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"

    /// RFC 8037 A.1: the Ed25519 private key.
    static let ed25519JWK = """
        {"kty":"OKP","crv":"Ed25519","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A",\
        "x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}
        """
    /// RFC 8037 A.3: the thumbprint of the A.2 public key.
    static let ed25519Thumbprint = "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"
    /// RFC 8037 A.4: the payload and the compact serialization of its signature.
    static let ed25519Payload = "Example of Ed25519 signing"
    static let ed25519Token =
        "eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc"
        + ".hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg"

    /// The RFC 7515 examples' claims: `{"iss":"joe","exp":1300819380,"http://example.com/is_root":true}`.
    static let expectedClaims: JWTClaims = ["iss": "joe", "exp": 1_300_819_380, "http://example.com/is_root": true]

    /// Before the examples' `exp`, without requiring a `kid` (the RFC headers have none).
    static let options = VerificationOptions(now: Date(timeIntervalSince1970: 1_300_819_000), requireKeyID: false)

    static func jwk(_ text: String) throws -> JWK { try JWK(json: Array(text.utf8)) }
}

@Suite struct JWTAsymmetricVectorTests {
    @Test("verifies RFC 7515 A.2 (RS256) exactly as printed")
    func rfc7515A2() throws {
        let jwk = try RFCVectors.jwk(RFCVectors.a2JWK)
        #expect(jwk.isPrivate)
        let key = try JWTKey(jwk: jwk.publicOnly(), kid: "2010-12-29")
        #expect(key.algorithm == .rs256)
        #expect(!key.canSign)
        let keys = try JWTKeySet(keys: [key], signingKID: nil)
        #expect(try keys.verify(RFCVectors.a2Token, options: RFCVectors.options) == RFCVectors.expectedClaims)
        // One flipped bit in the signature fails.
        var tampered = Array(RFCVectors.a2Token.utf8)
        tampered[tampered.count - 3] = UInt8(ascii: "X")
        #expect(throws: JWTError.invalidSignature) {
            try keys.verify(String(decoding: tampered, as: UTF8.self), options: RFCVectors.options)
        }
        // This library verifies RS256 only: the private JWK is refused rather than silently used.
        #expect(throws: JWTError.invalidKey("RSA private keys are not supported")) {
            try JWTKey(jwk: jwk, kid: "2010-12-29")
        }
    }

    @Test("verifies RFC 7515 A.3 (ES256) exactly as printed, with the public and the private JWK")
    func rfc7515A3() throws {
        let jwk = try RFCVectors.jwk(RFCVectors.a3JWK)
        for candidate in [jwk, jwk.publicOnly()] {
            let key = try JWTKey(jwk: candidate, kid: "a3")
            #expect(key.algorithm == .es256)
            #expect(key.canSign == candidate.isPrivate)
            let keys = try JWTKeySet(keys: [key], signingKID: nil)
            #expect(try keys.verify(RFCVectors.a3Token, options: RFCVectors.options) == RFCVectors.expectedClaims)
        }
        let signing = try JWTKeySet(keys: [JWTKey(jwk: jwk, kid: "a3")], signingKID: "a3")
        let token = try signing.signer(header: JWTHeader([.algorithm])).sign(RFCVectors.expectedClaims)
        // ECDSA signatures are randomized, so ours differ from the RFC's but verify, and are exactly 64 bytes.
        let parts = token.split(separator: ".")
        #expect(parts.count == 3)
        #expect(Base64URL.decode(String(parts[2]))?.count == 64)
        #expect(try signing.verify(token, options: RFCVectors.options) == RFCVectors.expectedClaims)
    }

    @Test("signs RFC 8037 A.4 (Ed25519) byte for byte and verifies it (A.5)")
    func rfc8037() throws {
        let jwk = try RFCVectors.jwk(RFCVectors.ed25519JWK)
        #expect(try jwk.thumbprint() == RFCVectors.ed25519Thumbprint)
        let key = try JWTKey(jwk: jwk, kid: "ed")
        #expect(key.algorithm == .edDSA)
        let keys = try JWTKeySet(keys: [key], signingKID: "ed")
        let token = try keys.signer(header: JWTHeader([.algorithm])).sign(
            payload: Array(RFCVectors.ed25519Payload.utf8))
        #expect(token == RFCVectors.ed25519Token)
        // A.5: the public key alone verifies it (the payload is not a claims set, so check the signature layer).
        let verifier = try JWTKeySet(keys: [JWTKey(jwk: jwk.publicOnly(), kid: "ed")], signingKID: nil)
        #expect(throws: JWTError.malformed(.json)) {
            try verifier.verify(RFCVectors.ed25519Token, options: RFCVectors.options)
        }
        var tampered = Array(RFCVectors.ed25519Token.utf8)
        tampered[tampered.count - 5] = UInt8(ascii: "A")
        #expect(throws: JWTError.invalidSignature) {
            try verifier.verify(String(decoding: tampered, as: UTF8.self), options: RFCVectors.options)
        }
    }
}
