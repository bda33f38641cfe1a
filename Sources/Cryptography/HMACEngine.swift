import Synchronization

/// The shared state behind an `HMAC`: a keyed template plus a pool of keyed workspaces.
///
/// Each call takes a workspace from the pool (or clones the template), so no OpenSSL context is ever used by two
/// threads at once, and no call pays for re-keying.
final class HMACEngine: Sendable {
    /// Read (cloned) only while `pool`'s lock is held.
    private let template: HMACWorkspace
    private let pool: Mutex<[HMACWorkspace]>
    private let outputByteCount: Int

    /// Workspaces kept for reuse; more than this many concurrent callers allocate and free their own.
    private static let poolLimit = 32

    init(algorithm: HMAC.Algorithm, key: [UInt8]) throws(CryptographyError) {
        let template = try HMACWorkspace(algorithm: algorithm)
        try template.setKey(key, algorithm: algorithm)
        self.template = template
        self.pool = Mutex([])
        self.outputByteCount = algorithm.outputByteCount
    }

    func authenticationCode(for bytes: [UInt8], range: Range<Int>) throws(CryptographyError) -> [UInt8] {
        precondition(range.lowerBound >= bytes.startIndex && range.upperBound <= bytes.endIndex)
        let workspace = try acquire()
        defer { release(workspace) }
        return try workspace.authenticationCode(for: bytes, range: range, outputByteCount: outputByteCount)
    }

    private func acquire() throws(CryptographyError) -> HMACWorkspace {
        try pool.withLock { (workspaces: inout [HMACWorkspace]) throws(CryptographyError) -> HMACWorkspace in
            if let workspace = workspaces.popLast() { return workspace }
            return try template.clone()
        }
    }

    private func release(_ workspace: HMACWorkspace) {
        pool.withLock { workspaces in
            if workspaces.count < Self.poolLimit { workspaces.append(workspace) }
        }
    }
}
