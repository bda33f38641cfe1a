import CBOR
import Cryptography
import WebAuthn

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension AppAttestVerifier {
    /// Verifies an attestation (`POST /integrity/apple/attest`).
    /// - Parameters:
    ///   - keyID: the key id as the app sent it (standard base64 of 32 bytes; anything else is `.malformed`).
    ///   - attestation: the decoded CBOR attestation object (at most 16 KiB, else `.malformed`).
    ///   - clientDataHash: `SHA256(challenge's UTF-8 bytes)`.
    ///   - now: the moment the certificates must be valid at.
    /// - Throws: `.malformed` for CBOR or a structure that does not parse; `.failed` with `format`,
    ///   `certificate`, `expired`, `nonce`, `key_id`, `app_id`, `counter`, `aaguid` or `development`.
    public func verifyAttestation(keyID: String, attestation: [UInt8], clientDataHash: [UInt8], now: Date)
        throws(IntegrityError) -> VerifiedAttestation
    {
        guard let keyIDBytes = StandardBase64.decode(keyID), keyIDBytes.count == 32 else {
            throw .malformed("keyId is not standard base64 of 32 bytes")
        }
        guard clientDataHash.count == 32 else { throw .malformed("clientDataHash is not 32 bytes") }
        guard attestation.count <= Self.maximumAttestationBytes else {
            throw .malformed("attestation over \(Self.maximumAttestationBytes) bytes")
        }
        let object = try AttestationObject(attestation)

        // 0. The format (WebAuthn §6.5.2; Apple's statement is `apple-appattest`, with x5c and receipt).
        guard object.format == Self.format else { throw .failed(.format, detail: "fmt is not apple-appattest") }
        guard let certificates = object.certificates, object.hasReceipt else {
            throw .failed(.format, detail: "attStmt without x5c or receipt")
        }
        let authenticatorData = try AuthenticatorData(
            appAttest: object.authenticatorData, requiresAttestedCredential: true)
        guard let credential = authenticatorData.attestedCredential else {
            throw .malformed("authenticator data without attested credential data")
        }

        // 1. The chain: leaf, then intermediates, to the pinned root, valid now.
        let leaf = try verifiedLeaf(certificates, now: now)

        // 2–4. nonce = SHA256(authData ‖ clientDataHash) is the leaf's extension 1.2.840.113635.100.8.2.
        let nonce = try Self.sha256(object.authenticatorData + clientDataHash)
        let extensionValue: [UInt8]?
        do {
            extensionValue = try leaf.extensionValue(oid: NonceExtension.oid)
        } catch {
            throw .failed(.nonce, detail: "the nonce extension appears more than once")
        }
        guard let extensionValue, let certified = NonceExtension.nonce(in: extensionValue) else {
            throw .failed(.nonce, detail: "the leaf has no well-formed nonce extension")
        }
        guard ConstantTime.equals(certified, nonce) else {
            throw .failed(.nonce, detail: "the leaf's nonce is not SHA256(authData ‖ clientDataHash)")
        }

        // 5. keyId = SHA256(the leaf's uncompressed public point).
        let publicKey: [UInt8]
        do {
            publicKey = try leaf.p256PublicPoint()
        } catch {
            throw .failed(.certificate, detail: "the leaf's key is not on P-256")
        }
        guard ConstantTime.equals(try Self.sha256(publicKey), keyIDBytes) else {
            throw .failed(.keyID, detail: "keyId is not the SHA-256 of the leaf's public key")
        }

        // 6. The RP id hash is SHA256 of an accepted app id.
        guard let appID = rpIDHashes.first(where: { ConstantTime.equals($0.hash, authenticatorData.rpIDHash) })?.appID
        else { throw .failed(.appID, detail: "the RP id hash matches none of integrity.apple.appIds") }

        // 7. The counter of a new key is 0.
        guard authenticatorData.signCount == 0 else {
            throw .failed(.counter, detail: "attestation counter \(authenticatorData.signCount), not 0")
        }

        // 8. The AAGUID: production, or development when allowed.
        let isDevelopment: Bool
        switch credential.aaguid {
        case Self.productionAAGUID: isDevelopment = false
        case Self.developmentAAGUID:
            guard allowDevelopment else {
                throw .failed(.development, detail: "development AAGUID while integrity.apple.allowDevelopment is off")
            }
            isDevelopment = true
        default: throw .failed(.aaguid, detail: "AAGUID is neither App Attest's production nor development value")
        }

        // 9. The credential id is the key id.
        guard ConstantTime.equals(credential.credentialID, keyIDBytes) else {
            throw .failed(.keyID, detail: "the credential id is not the key id")
        }
        return VerifiedAttestation(publicKey: publicKey, appID: appID, isDevelopment: isDevelopment, counter: 0)
    }

    /// The leaf of `certificates` (leaf first) once the chain verifies to the root at `now`.
    private func verifiedLeaf(_ certificates: [[UInt8]], now: Date) throws(IntegrityError) -> X509Certificate {
        var parsed: [X509Certificate] = []
        for der in certificates {
            do {
                parsed.append(try X509Certificate(der: der))
            } catch {
                throw .malformed("an x5c certificate does not parse")
            }
        }
        guard let leaf = parsed.first else { throw .failed(.format, detail: "x5c is empty") }
        let seconds = now.timeIntervalSince1970.rounded(.down)
        let time = Int64(exactly: seconds) ?? (seconds < 0 ? Int64.min : Int64.max)
        do {
            try leaf.verifyChain(intermediates: Array(parsed.dropFirst()), root: root, at: time)
        } catch .certificateRejected(.expired), .certificateRejected(.notYetValid) {
            throw .failed(.expired, detail: "a certificate of the x5c chain is not valid now")
        } catch {
            throw .failed(.certificate, detail: "the x5c chain does not verify to the pinned root (\(error))")
        }
        return leaf
    }

    /// SHA-256, as an integrity error (OpenSSL failing is not the client's fault, but no verification passes).
    static func sha256(_ bytes: [UInt8]) throws(IntegrityError) -> [UInt8] {
        do {
            return try SHA256.hash(bytes)
        } catch {
            throw .failed(.signature, detail: "SHA-256 failed (\(error))")
        }
    }
}
