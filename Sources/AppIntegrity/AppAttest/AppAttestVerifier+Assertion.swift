import CBOR
import Cryptography
import WebAuthn

extension AppAttestVerifier {
    /// Verifies an assertion (`POST /integrity/apple/assert`) by a stored key.
    /// - Parameters:
    ///   - assertion: the decoded CBOR `{signature, authenticatorData}` (at most 4 KiB, else `.malformed`).
    ///   - clientDataHash: `SHA256(challenge's UTF-8 bytes)`.
    ///   - publicKey: the stored key's uncompressed point.
    ///   - appID: the stored key's app; the RP id hash must be its SHA-256.
    ///   - storedCounter: the stored counter; the assertion's must be greater.
    /// - Returns: the assertion's counter (the caller advances the stored one atomically with it).
    /// - Throws: `.malformed`; `.failed` with `signature`, `app_id` or `counter`.
    public func verifyAssertion(
        _ assertion: [UInt8], clientDataHash: [UInt8], publicKey: [UInt8], appID: String, storedCounter: UInt32
    ) throws(IntegrityError) -> UInt32 {
        guard clientDataHash.count == 32 else { throw .malformed("clientDataHash is not 32 bytes") }
        guard assertion.count <= Self.maximumAssertionBytes else {
            throw .malformed("assertion over \(Self.maximumAssertionBytes) bytes")
        }
        let value: CBORValue
        do {
            value = try CBORDecoder(limits: .init(maximumInputBytes: Self.maximumAssertionBytes)).decode(assertion)
        } catch {
            throw .malformed("assertion: \(error)")
        }
        guard case .map = value, let signature = value["signature"]?.bytesValue,
            let authenticatorBytes = value["authenticatorData"]?.bytesValue
        else { throw .malformed("assertion is not {signature, authenticatorData}") }
        let authenticatorData = try AuthenticatorData(appAttest: authenticatorBytes, requiresAttestedCredential: false)

        // 1–3. ES256 over nonce = SHA256(authenticatorData ‖ clientDataHash): the ECDSA digest is SHA256(nonce).
        let nonce = try Self.sha256(authenticatorBytes + clientDataHash)
        guard publicKey.count == 65, publicKey[0] == 0x04,
            let key = try? AsymmetricKey(p256X: Array(publicKey[1..<33]), y: Array(publicKey[33..<65]))
        else { throw .failed(.signature, detail: "the stored key is not an uncompressed P-256 point") }
        let valid: Bool
        do {
            valid = try key.isValidDERSignature(signature, for: nonce)
        } catch {
            throw .failed(.signature, detail: "signature check failed (\(error))")
        }
        guard valid else { throw .failed(.signature, detail: "the assertion's signature does not verify") }

        // 4. The RP id hash is SHA256 of the key's app id.
        guard ConstantTime.equals(authenticatorData.rpIDHash, try Self.sha256(Array(appID.utf8))) else {
            throw .failed(.appID, detail: "the RP id hash is not the key's app id")
        }

        // 5. The counter moves forward: a replayed or reordered assertion is refused.
        guard authenticatorData.signCount > storedCounter else {
            throw .failed(.counter, detail: "counter \(authenticatorData.signCount) <= stored \(storedCounter)")
        }
        return authenticatorData.signCount
    }
}
