/// How one type of ``DPoPKey`` is generated and restored from its ``DPoPKeyMaterial``: what a
/// ``DPoPConfiguration`` uses to make the session's key and to load it again after a restart.
///
/// Built in: ``softwareP256`` and ``softwareEd25519`` (CryptoKit on Apple platforms, the `Cryptography` module on
/// Linux), ``secureEnclaveP256`` (Apple platforms with a Secure Enclave) and ``preferred`` (the Secure Enclave where
/// there is one, else software P-256). A kind of your own (a key in an HSM, Android's Keystore through a bridge) is
/// a name and the two functions.
public struct DPoPKeyKind: Sendable {
    /// Written into the material (``DPoPKeyMaterial/kind``); material of another kind is not restored.
    public let name: String
    private let generateKey: @Sendable () throws -> any DPoPKey
    private let restoreKey: @Sendable (DPoPKeyMaterial) throws -> any DPoPKey

    /// Creates a kind from its name and its two functions.
    /// - Parameters:
    ///   - name: the kind's name in stored material.
    ///   - generate: makes a new random key.
    ///   - restore: loads a key from material of this kind (``DPoPKey/material()`` of a key it made).
    public init(
        name: String, generate: @escaping @Sendable () throws -> any DPoPKey,
        restore: @escaping @Sendable (DPoPKeyMaterial) throws -> any DPoPKey
    ) {
        self.name = name
        self.generateKey = generate
        self.restoreKey = restore
    }

    /// A new random key.
    /// - Throws: ``TokenClientError/dpop(_:)`` when it cannot be made.
    public func generate() throws -> any DPoPKey {
        do {
            return try generateKey()
        } catch {
            throw TokenClientError.dpop("cannot generate a \(name) key: \(error)")
        }
    }

    /// The key `material` holds.
    /// - Throws: ``TokenClientError/dpop(_:)`` when the material is of another kind or does not load.
    public func restore(_ material: DPoPKeyMaterial) throws -> any DPoPKey {
        guard material.kind == name else {
            throw TokenClientError.dpop("the stored key is a \(material.kind) key, not \(name)")
        }
        do {
            return try restoreKey(material)
        } catch {
            throw TokenClientError.dpop("cannot load the stored \(name) key: \(error)")
        }
    }
}
