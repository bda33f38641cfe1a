import Cryptography
import Synchronization

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Stateless server nonces (RFC 9449 §8): base64url of an HMAC-SHA-256 of the time step (`stepSeconds`, 300) under
/// `secret`, so every instance with the same secret issues and accepts the same nonces without storing any. A
/// nonce is accepted during its step and the next one; the current nonce is computed once per step.
///
/// The MAC input is the UTF-8 of `tokenvend-dpop-nonce:` followed by the decimal step, `floor(unix seconds /
/// stepSeconds)`. Thread-safe: the nonces of the latest step are kept under a `Mutex`.
public final class DPoPNonces: Sendable {
    public let stepSeconds: Int64
    private let mac: HMAC
    /// The nonces of one step and of the step before it.
    private struct Window {
        let step: Int64
        let current: [UInt8]
        let previous: [UInt8]
    }
    private let window = Mutex<Window?>(nil)

    /// - Parameter secret: at least 32 bytes (`dpop.nonceSecret`).
    /// - Precondition: `secret` has at least 32 bytes and `stepSeconds` is positive (the configuration checks both).
    public init(secret: [UInt8], stepSeconds: Int64 = 300) {
        precondition(stepSeconds > 0, "the nonce step must be positive")
        self.stepSeconds = stepSeconds
        do {
            self.mac = try HMAC(algorithm: .sha256, key: secret)
        } catch {
            preconditionFailure("the DPoP nonce secret must have at least 32 bytes (\(error))")
        }
    }

    /// The nonce to hand out at `now`.
    public func current(now: Date) -> String {
        String(decoding: nonces(at: step(now)).current, as: UTF8.self)
    }

    /// Whether `nonce` is the nonce of `now`'s step or of the one before (compared in constant time).
    public func accepts(_ nonce: String, now: Date) -> Bool {
        let window = nonces(at: step(now))
        let presented = Array(nonce.utf8)
        // Both comparisons always run, so the time does not tell which step matched; an empty nonce (an HMAC that
        // OpenSSL could not compute) never matches.
        let current = ConstantTime.equals(window.current, presented)
        let previous = ConstantTime.equals(window.previous, presented)
        return !presented.isEmpty && (current || previous)
    }

    /// `floor(unix seconds / stepSeconds)`, rounding towards −∞ before 1970 too.
    func step(_ now: Date) -> Int64 {
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        let quotient = seconds / stepSeconds
        return seconds % stepSeconds < 0 ? quotient - 1 : quotient
    }

    /// The nonce of one step: base64url (no padding) of the MAC; empty when OpenSSL fails (allocation).
    func nonce(step: Int64) -> [UInt8] {
        guard let code = try? mac.authenticationCode(for: Array("tokenvend-dpop-nonce:\(step)".utf8)) else {
            return []
        }
        var text: [UInt8] = []
        Base64URL.append(code, to: &text)
        return text
    }

    private func nonces(at step: Int64) -> Window {
        if let cached = window.withLock({ $0 }), cached.step == step { return cached }
        // Computed outside the lock: two threads crossing a step boundary at once both compute the same values.
        let fresh = Window(step: step, current: nonce(step: step), previous: nonce(step: step - 1))
        window.withLock { stored in
            if stored.map({ $0.step < step }) ?? true { stored = fresh }
        }
        return fresh
    }
}
