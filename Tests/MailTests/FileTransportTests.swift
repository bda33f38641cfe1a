import Foundation
import Testing

@testable import Mail

@Suite struct FileTransportTests {
    @Test("each message is written whole to <UTC time>-<id>.eml, mode 0600, in a 0700 folder")
    func writesFiles() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("mail-out-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("data/outbox").path
        let message = try MailMessage(
            from: Mailbox("a@b.c"), to: Mailbox("d@e.f"), content: MailContent(subject: "s", text: "Code 123456\n"),
            date: Date(), messageID: "x1")
        let transport = FileTransport(directory: directory)
        let first = try #require(try await transport.deliver(message.encoded(), from: "a@b.c", to: "d@e.f").location)
        let second = try #require(try await transport.deliver(message.encoded(), from: "a@b.c", to: "d@e.f").location)
        #expect(first != second)
        #expect(first.hasPrefix(directory + "/"))
        let name = String(first.dropFirst(directory.count + 1))
        #expect(name.wholeMatch(of: /20[0-9]{6}T[0-9]{6}\.[0-9]{3}Z-[0-9a-f]{16}\.eml/) != nil)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: first))) == message.encoded())
        let fileMode = try #require(FileManager.default.attributesOfItem(atPath: first)[.posixPermissions] as? Int)
        #expect(fileMode == 0o600)
        let folderMode = try #require(
            FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int)
        #expect(folderMode == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted().count == 2)
    }

    @Test("a folder that cannot be made is a transient failure naming the call")
    func unwritable() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mail-file-\(UUID().uuidString)")
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let error = try #require(
            await #expect(throws: MailDeliveryError.self) {
                try await FileTransport(directory: file.path + "/outbox").deliver([1], from: "a@b.c", to: "d@e.f")
            })
        #expect(error.kind == .transient)
        #expect(error.reason.hasPrefix("writing the message failed: mkdir"))
    }
}
