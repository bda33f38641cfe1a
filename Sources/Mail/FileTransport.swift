import Dispatch
import PrivateFiles

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes each message to a folder instead of sending it: the development default (`email.transport` `file`),
/// so sign-up and password reset work locally without an SMTP server.
///
/// Each message is one file, `<UTC time>-<16 random hex digits>.eml` (`20261128T022500.123Z-1f0c….eml`, so a
/// listing sorts by time), written atomically with mode 0600 in a folder created 0700 (`PrivateFiles`); the path
/// is the receipt's ``MailReceipt/location``. The writes (and their fsyncs) run on a Dispatch queue, never on
/// Swift's cooperative pool.
public struct FileTransport: MailTransport {
    /// The folder the files go to.
    public let directory: String

    /// A transport writing into `directory` (created when missing).
    public init(directory: String) {
        self.directory = directory
    }

    /// Writes `message` to a new file; `from` and `to` are not written (the headers name them).
    ///
    /// - Throws: ``MailDeliveryError/Kind/transient`` naming the failed system call (a full disk may clear).
    public func deliver(_ message: [UInt8], from: String, to: String) async throws(MailDeliveryError) -> MailReceipt {
        let directory = directory
        let name = MailDate.compact(Date()) + "-" + Self.randomHex() + ".eml"
        let result: Result<String, MailDeliveryError> = await withCheckedContinuation { continuation in
            DispatchQueue(label: "tokenvend.mail.file").async {
                let path = (directory.hasSuffix("/") ? directory : directory + "/") + name
                do {
                    try PrivateFolder.create(directory)
                    try PrivateFile.writeAtomically(message, to: path)
                    continuation.resume(returning: .success(path))
                } catch {
                    let failure = MailDeliveryError(kind: .transient, reason: "writing the message failed: \(error)")
                    continuation.resume(returning: .failure(failure))
                }
            }
        }
        return MailReceipt(location: try result.get())
    }

    private static func randomHex() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = String(generator.next() as UInt64, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
