import Foundation
import Testing

@testable import SQLiteStore
@testable import Store

/// `kill -9` in the middle of writes: the test re-runs this test binary as a child that rotates a session and
/// creates users in a loop, printing `ACK n` after each acknowledged write, kills it with SIGKILL, and checks
/// that nothing acknowledged was lost and the file is intact.
@Suite(.timeLimit(.minutes(1))) struct CrashTests {
    static let databaseVariable = "TOKENVEND_CRASH_CHILD_DB"
    static let sessionVariable = "TOKENVEND_CRASH_CHILD_SESSION"

    @Test("a kill -9 during writes loses no acknowledged write and leaves the database intact")
    func killNine() throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let database = try temporary.open()
        let user = try Fixture.user(database)
        let session = try SessionStore(database: database).create(
            userID: user.id, userAgent: nil, ip: nil, refreshTTL: .seconds(3600), maxLifetime: .seconds(7200))
        database.close()

        let child = Process()
        child.executableURL = URL(
            fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        child.arguments = ["--testing-library", "swift-testing", "--filter", "crashChildWriter"]
        var environment = ProcessInfo.processInfo.environment
        environment[Self.databaseVariable] = temporary.path
        environment[Self.sessionVariable] = session.id
        child.environment = environment
        let output = Pipe()
        child.standardOutput = output
        child.standardError = FileHandle.nullDevice
        try child.run()
        defer { if child.isRunning { kill(child.processIdentifier, SIGKILL) } }

        var acknowledged: Int64 = -1
        var buffer = Data()
        let target = Int64.random(in: 20...60)
        while acknowledged < target {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }  // the child ended early
            buffer.append(chunk)
            acknowledged = max(acknowledged, Self.lastAck(in: buffer))
        }
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        buffer.append(output.fileHandleForReading.readDataToEndOfFile())
        acknowledged = max(acknowledged, Self.lastAck(in: buffer))
        #expect(child.terminationReason == .uncaughtSignal)
        try #require(acknowledged >= target)

        let reopened = try temporary.open()
        defer { reopened.close() }
        let check = try reopened.read { (connection: Connection) throws(StoreError) in
            try connection.queryOne("PRAGMA integrity_check")?.string(0)
        }
        #expect(check == "ok")
        let counter = try #require(try SessionStore(database: reopened).find(sessionID: session.id)?.counter)
        // Every acknowledged rotation is there; at most one more committed before its ACK was printed.
        #expect(counter >= acknowledged && counter <= acknowledged + 1)
        let users = try UserStore(database: reopened).list().count
        #expect(users >= Int(acknowledged) + 1 && users <= Int(acknowledged) + 2)
    }

    static func lastAck(in data: Data) -> Int64 {
        String(decoding: data, as: UTF8.self).split(separator: "\n")
            .compactMap { $0.hasPrefix("ACK ") ? Int64($0.dropFirst(4)) : nil }.max() ?? -1
    }

    /// The child side of `killNine`; runs only when that test starts it.
    @Test(
        "crash child: writes until killed",
        .enabled(if: ProcessInfo.processInfo.environment[databaseVariable] != nil))
    func crashChildWriter() throws {
        let environment = ProcessInfo.processInfo.environment
        let path = try #require(environment[Self.databaseVariable])
        let sessionID = try #require(environment[Self.sessionVariable])
        let database = try Database(configuration: .init(path: path))
        let sessions = SessionStore(database: database)
        let users = UserStore(database: database)
        var counter: Int64 = 0
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let outcome = try sessions.rotate(
                sessionID: sessionID, presentedCounter: counter, grace: .seconds(10), refreshTTL: .seconds(3600))
            guard case .rotated(_, let next) = outcome else {
                Issue.record("rotation refused: \(outcome)")
                return
            }
            try users.create(email: "crash\(next)@example.com", passwordHash: Fixture.hash)
            counter = next
            FileHandle.standardOutput.write(Data("ACK \(counter)\n".utf8))
        }
    }
}
