import Atomics
import Store

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A 64-bit counter in a small shared file beside the database (`<database>-commits`, mode 0600), which every
/// `Database` on that file, in this process or another, increments after each write transaction.
///
/// Readers use it to know whether anything may have changed since they last read: load the counter, read the
/// database, and keep what was read together with the counter; while the counter is unchanged, no write
/// transaction has ended since the load, so the kept value is still the database's. This is what lets
/// `SessionStore` answer the per-request liveness check from memory without missing a logout made by another
/// process (`tokenvend users disable`).
///
/// The counter is an atomic in `MAP_SHARED` memory (the same mechanism as SQLite's own `-shm` WAL index), so a
/// load costs a few nanoseconds and takes no lock. It is incremented after the `COMMIT` (or the failed attempt),
/// never before, so a reader can never pair old data with a new counter value. A process that dies between its
/// `COMMIT` and the increment, or a change made with another SQLite client, is not seen until the next
/// increment; callers bound their staleness for that case (see `Database.Configuration.statusCacheLifetime`).
@safe final class CommitCounter: Sendable {
    /// The file's path.
    let path: String
    private nonisolated(unsafe) let mapping: UnsafeMutableRawPointer
    private let counter: UnsafeAtomic<UInt64>

    /// Bytes mapped: one page, of which the first 8 hold the counter (the rest is reserved).
    private static let mappedLength = 4096

    /// Opens (creating with mode 0600 if missing) and maps the counter file of the database at `databasePath`.
    ///
    /// The database path is resolved first (`realpath`), as SQLite resolves it for its `-wal` and `-shm`
    /// files, so every process reaches the same counter whichever symbolic link it opened the database by.
    /// - Returns: nil when the file cannot be created, sized or mapped. `Database` then refuses to open: a
    ///   process whose writes did not move the counter would leave the others' kept answers stale.
    init?(databasePath: String) {
        guard let resolved = unsafe realpath(databasePath, nil) else { return nil }
        let path = unsafe String(cString: resolved) + "-commits"
        unsafe free(resolved)
        let descriptor = unsafe open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { return nil }
        defer { _ = close(descriptor) }
        var status = stat()
        guard unsafe fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        // Growing a shorter file is safe if two processes do it at once: both extend it with zeros.
        if status.st_size < Self.mappedLength {
            guard ftruncate(descriptor, off_t(Self.mappedLength)) == 0 else { return nil }
        }
        let address = unsafe mmap(nil, Self.mappedLength, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0)
        guard let address = unsafe address, unsafe address != MAP_FAILED else { return nil }
        self.path = path
        unsafe self.mapping = address
        let storage = unsafe address.bindMemory(to: UInt64.AtomicRepresentation.self, capacity: 1)
        unsafe self.counter = UnsafeAtomic(at: storage)
    }

    deinit {
        _ = unsafe munmap(mapping, Self.mappedLength)
    }

    /// Lets go of the file, for `Database.close()` (a mapping keeps the file system busy: it could not be
    /// unmounted). The memory stays valid for racing readers: an anonymous private page replaces the file's in
    /// place (`MAP_FIXED`), and the value moves on so nothing read under the old one is used again.
    func detach() {
        let replaced = unsafe mmap(
            mapping, Self.mappedLength, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0)
        if unsafe replaced == MAP_FAILED { return }
        increment()
    }

    /// The current value (acquiring: what the writer committed before incrementing is visible after this load).
    var value: UInt64 {
        counter.load(ordering: .acquiring)
    }

    /// Records that a write transaction ended (committed or not). Call it after `COMMIT`, never before.
    func increment() {
        counter.wrappingIncrement(ordering: .releasing)
    }
}

extension CommitCounter: ChangeStampSource {
    package func changeStamp() -> UInt64? { value }
}

extension SessionStatusCache {
    /// A cache fed by a SQLite database's commit counter.
    convenience init(counter: CommitCounter, lifetime: Duration, capacity: Int = 65_536) {
        self.init(source: counter, lifetime: lifetime, capacity: capacity)
    }
}
