import Synchronization

/// The shared state behind an ECDSA or RSA `AsymmetricKey`: the key plus pools of sign and verify contexts
/// (Ed25519 signs and verifies through libsodium instead).
///
/// Each call takes a context from its pool (or creates one), so no OpenSSL context is ever used by two threads at
/// once and no call pays for the provider lookup of a fresh initialisation.
final class SignatureEngine: Sendable {
    let key: PKey
    private let signers = Mutex<[SignatureContext]>([])
    private let verifiers = Mutex<[SignatureContext]>([])

    /// Contexts kept per pool; more concurrent callers than this allocate and free their own.
    private static let poolLimit = 32

    init(key: PKey) {
        self.key = key
    }

    func sign(_ bytes: [UInt8], range: Range<Int>, maximumLength: Int) throws(CryptographyError) -> [UInt8] {
        let context = try acquire(signers, signing: true)
        defer { release(context, to: signers) }
        return try context.sign(bytes, range: range, maximumLength: maximumLength)
    }

    func verify(_ signature: [UInt8], for bytes: [UInt8], range: Range<Int>) throws(CryptographyError) -> Bool {
        let context = try acquire(verifiers, signing: false)
        defer { release(context, to: verifiers) }
        return try context.verify(signature, for: bytes, range: range)
    }

    private func acquire(_ pool: borrowing Mutex<[SignatureContext]>, signing: Bool) throws(CryptographyError)
        -> SignatureContext
    {
        if let context = pool.withLock({ $0.popLast() }) { return context }
        return try SignatureContext(key: key, signing: signing)
    }

    private func release(_ context: SignatureContext, to pool: borrowing Mutex<[SignatureContext]>) {
        pool.withLock { contexts in
            if contexts.count < Self.poolLimit { contexts.append(context) }
        }
    }
}
