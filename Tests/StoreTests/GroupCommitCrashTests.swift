import Foundation
import Testing

@testable import SQLiteStore
@testable import Store

/// `kill -9` during grouped `async` writes: the test re-runs this test binary as a child in which 8 tasks create
/// users concurrently (so their writes share commits), printing `ACK writer n` after each acknowledged write;
/// it kills the child with SIGKILL and checks that every acknowledged write survived and the file is intact.
@Suite(.timeLimit(.minutes(1))) struct GroupCommitCrashTests {
    static let databaseVariable = "TOKENVEND_GROUP_CRASH_CHILD_DB"
    static let writers = 8

    @Test("a kill -9 during grouped async writes loses no acknowledged write and leaves the database intact")
    func killNineDuringGroups() throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        try temporary.open().close()

        let child = Process()
        child.executableURL = URL(
            fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        child.arguments = ["--testing-library", "swift-testing", "--filter", "groupCrashChildWriter"]
        var environment = ProcessInfo.processInfo.environment
        environment[Self.databaseVariable] = temporary.path
        child.environment = environment
        let output = Pipe()
        child.standardOutput = output
        child.standardError = FileHandle.nullDevice
        try child.run()
        defer { if child.isRunning { kill(child.processIdentifier, SIGKILL) } }

        var buffer = Data()
        let target = Int.random(in: 200...600)
        while Self.acknowledged(in: buffer).values.reduce(0, { $0 + $1 + 1 }) < target {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }  // the child ended early
            buffer.append(chunk)
        }
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        buffer.append(output.fileHandleForReading.readDataToEndOfFile())
        #expect(child.terminationReason == .uncaughtSignal)
        let acknowledged = Self.acknowledged(in: buffer)
        try #require(acknowledged.values.reduce(0, { $0 + $1 + 1 }) >= target)

        let reopened = try temporary.open()
        defer { reopened.close() }
        let check = try reopened.read { (connection: Connection) throws(StoreError) in
            try connection.queryOne("PRAGMA integrity_check")?.string(0)
        }
        #expect(check == "ok")
        let stored = Set(try UserStore(database: reopened).list().map(\.email))
        for (writer, last) in acknowledged {
            let missing = (0...last).filter { !stored.contains(Self.email(writer: writer, index: $0)) }
            #expect(missing.isEmpty, "writer \(writer) lost acknowledged writes \(missing)")
        }
    }

    static func email(writer: Int, index: Int) -> String { "w\(writer)-\(index)@example.com" }

    /// The highest acknowledged index per writer (each writer acknowledges 0, 1, 2, … in order).
    static func acknowledged(in data: Data) -> [Int: Int] {
        var last: [Int: Int] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 3, fields[0] == "ACK", let writer = Int(fields[1]), let index = Int(fields[2])
            else { continue }
            last[writer] = max(last[writer] ?? -1, index)
        }
        return last
    }

    /// The child side of `killNineDuringGroups`; runs only when that test starts it.
    @Test(
        "group crash child: writes until killed",
        .enabled(if: ProcessInfo.processInfo.environment[databaseVariable] != nil))
    func groupCrashChildWriter() async throws {
        let path = try #require(ProcessInfo.processInfo.environment[Self.databaseVariable])
        let users = UserStore(database: try Database(configuration: .init(path: path)))
        let deadline = ContinuousClock.now + .seconds(30)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<Self.writers {
                group.addTask {
                    var index = 0
                    while ContinuousClock.now < deadline {
                        try await users.create(email: Self.email(writer: writer, index: index), passwordHash: "h")
                        FileHandle.standardOutput.write(Data("ACK \(writer) \(index)\n".utf8))
                        index += 1
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}
