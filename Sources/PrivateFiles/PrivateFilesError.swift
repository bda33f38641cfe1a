#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call of ``PrivateFile`` or ``PrivateFolder``: which call, on which path, and the `errno` it left.
///
/// Callers word their own messages from it; ``description`` is `"<call>: <strerror(code)>"`, without the path.
public struct PrivateFilesError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The system call that failed, named as in its manual page.
    public enum Call: String, Sendable, Equatable {
        case open, fchmod, write, fsync, close, rename, mkdir, chmod
    }

    /// The call that failed.
    public var call: Call
    /// `errno` as the call left it (`ENOTDIR` from ``Call/mkdir`` when the path exists but is not a folder).
    public var code: Int32
    /// The path the call was made on: the temporary file, the target, or the folder.
    public var path: String

    /// Creates an error for `call` on `path` with `errno` `code`.
    public init(_ call: Call, code: Int32, path: String) {
        self.call = call
        self.code = code
        self.path = path
    }

    /// Reads `errno` now, right after the failed call.
    init(_ call: Call, path: String) {
        self.init(call, code: errno, path: path)
    }

    /// `"<call>: <strerror(code)>"`, for example `"rename: Is a directory"`.
    public var description: String {
        "\(call.rawValue): \(unsafe String(cString: strerror(code)))"
    }
}
