import StrictJSON
import Synchronization

/// Remembers the parsed form of the few distinct header segments a key set sees (one per signer, in practice), so
/// verification skips decoding and parsing them. Only headers of tokens that verified are added, so a client
/// without a key cannot fill it; it stops growing at `capacity` entries.
final class HeaderCache: Sendable {
    private struct Entry {
        let segment: [UInt8]
        let header: JSONObject
    }

    /// Distinct header segments remembered. Default: 8.
    private static let capacity = 8
    private let entries = Mutex<[Entry]>([])

    /// The parsed header whose base64url segment is `bytes[range]`, if remembered.
    func header(for bytes: [UInt8], range: Range<Int>) -> JSONObject? {
        entries.withLock { entries in
            for entry in entries where UTF8Bytes.equal(bytes, range, entry.segment) { return entry.header }
            return nil
        }
    }

    /// Remembers a header of a verified token.
    func insert(segment: ArraySlice<UInt8>, header: JSONObject) {
        entries.withLock { entries in
            guard entries.count < Self.capacity else { return }
            let segment = Array(segment)
            guard !entries.contains(where: { $0.segment == segment }) else { return }
            entries.append(Entry(segment: segment, header: header))
        }
    }
}
