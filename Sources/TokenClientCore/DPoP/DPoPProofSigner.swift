#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Builds DPoP proofs (RFC 9449 §4.2): a compact JWS with the header
/// `{"typ":"dpop+jwt","alg","jwk"}` and the claims `{"jti","htm","htu","iat","ath"?,"nonce"?}`, signed by a
/// ``DPoPKey``. Independent of the key's type: any ``DPoPKey`` backs it.
public struct DPoPProofSigner: Sendable {
    /// The key that signs.
    public let key: any DPoPKey
    private let now: @Sendable () -> Date
    private let makeIdentifier: @Sendable () -> String

    /// Creates a signer.
    /// - Parameters:
    ///   - key: the key whose public JWK goes into every header.
    ///   - now: the clock of `iat`; the system clock by default.
    ///   - makeIdentifier: the `jti` of each proof; 32 random bytes, base64url, by default.
    public init(
        key: any DPoPKey, now: @escaping @Sendable () -> Date = { Date() },
        makeIdentifier: (@Sendable () -> String)? = nil
    ) {
        self.key = key
        self.now = now
        self.makeIdentifier = makeIdentifier ?? { PKCE.randomToken() }
    }

    /// A proof for one request.
    /// - Parameters:
    ///   - method: the request's method (`htm`).
    ///   - url: the request's URL; `htu` is it without query and fragment.
    ///   - accessToken: the access token sent with the request, whose SHA-256 becomes `ath`; `nil` for none.
    ///   - nonce: the server's last `DPoP-Nonce`, when it gave one.
    /// - Throws: ``TokenClientError/dpop(_:)`` when the key cannot sign.
    public func proof(method: String, url: URL, accessToken: String? = nil, nonce: String? = nil) throws -> String {
        let header = Header(typ: "dpop+jwt", alg: key.algorithm.rawValue, jwk: key.publicJWK)
        let claims = Claims(
            jti: makeIdentifier(), htm: method.uppercased(), htu: Self.targetURI(url),
            iat: Int64(now().timeIntervalSince1970.rounded(.down)),
            ath: accessToken.map { Base64URL.encode(PKCE.sha256(Array($0.utf8))) }, nonce: nonce)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let signingInput: String
        do {
            signingInput =
                Base64URL.encode(Array(try encoder.encode(header))) + "."
                + Base64URL.encode(Array(try encoder.encode(claims)))
        } catch {
            throw TokenClientError.dpop("cannot encode a proof")
        }
        let signature: [UInt8]
        do {
            signature = try key.sign(Array(signingInput.utf8))
        } catch let error as TokenClientError {
            throw error
        } catch {
            throw TokenClientError.dpop("the DPoP key cannot sign: \(error)")
        }
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// `url` without its query and fragment (the proof's `htu`).
    public static func targetURI(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            return url.absoluteString
        }
        components.query = nil
        components.fragment = nil
        return components.string ?? url.absoluteString
    }

    private struct Header: Encodable {
        let typ: String
        let alg: String
        let jwk: DPoPPublicJWK
    }

    private struct Claims: Encodable {
        let jti: String
        let htm: String
        let htu: String
        let iat: Int64
        let ath: String?
        let nonce: String?
    }
}
