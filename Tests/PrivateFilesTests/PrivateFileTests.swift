import Foundation
import Synchronization
import Testing

@testable import PrivateFiles

@Suite("PrivateFile", .serialized)
struct PrivateFileTests {
    @Test(
        "a new file is 0600 whatever the umask, and holds exactly the bytes", arguments: [0, 0o022, 0o277] as [mode_t])
    func modeUnderUmask(umaskValue: mode_t) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.path + "/keys.json"
        try Scratch.withUmask(umaskValue) { () throws(PrivateFilesError) in
            try PrivateFile.writeAtomically(Array("first\n".utf8), to: path)
        }
        #expect(Scratch.mode(path) == 0o600)
        #expect(FileManager.default.contents(atPath: path) == Data("first\n".utf8))
        #expect(try scratch.names() == ["keys.json"])
    }

    @Test("create makes an exclusive 0600 file whatever the umask", arguments: [0, 0o277] as [mode_t])
    func createMode(umaskValue: mode_t) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.path + "/database"
        try Scratch.withUmask(umaskValue) { () throws(PrivateFilesError) in try PrivateFile.create(at: path) }
        #expect(Scratch.mode(path) == 0o600)
        #expect(throws: PrivateFilesError(.open, code: EEXIST, path: path)) { try PrivateFile.create(at: path) }
    }

    @Test("replacing a world-readable file leaves a 0600 file with the new bytes only")
    func replacesLooseFile() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.path + "/tokens.json"
        #expect(
            FileManager.default.createFile(
                atPath: path, contents: Data(repeating: 0x41, count: 10_000), attributes: [.posixPermissions: 0o644]))
        try PrivateFile.writeAtomically(Array("short".utf8), to: path)
        #expect(Scratch.mode(path) == 0o600)
        #expect(FileManager.default.contents(atPath: path) == Data("short".utf8))
        #expect(try scratch.names() == ["tokens.json"])
    }

    @Test("a failed rename (the target is a folder) leaves the folder as it was and no temporary file")
    func failedRenameLeavesNothing() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let target = scratch.path + "/target"
        try FileManager.default.createDirectory(atPath: target + "/inside", withIntermediateDirectories: true)
        #expect(throws: PrivateFilesError(.rename, code: EISDIR, path: target)) {
            try PrivateFile.writeAtomically(Array(repeating: 7, count: 100_000), to: target)
        }
        #expect(try scratch.names() == ["target"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: target) == ["inside"])
    }

    @Test("a failed open (the folder is a file) names open and the temporary path, and creates nothing")
    func failedOpenLeavesNothing() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let blocker = scratch.path + "/blocker"
        #expect(FileManager.default.createFile(atPath: blocker, contents: Data("keep".utf8)))
        let thrown = #expect(throws: PrivateFilesError.self) {
            try PrivateFile.writeAtomically(Array("x".utf8), to: blocker + "/file")
        }
        let error = try #require(thrown)
        #expect(error.call == .open)
        #expect(error.code == ENOTDIR)
        #expect(error.path.hasPrefix(blocker + "/file.tmp-"))
        #expect(error.description == "open: \(String(cString: strerror(ENOTDIR)))")
        #expect(try scratch.names() == ["blocker"])
        #expect(FileManager.default.contents(atPath: blocker) == Data("keep".utf8))
    }

    @Test("a symbolic link at the temporary path is not followed: the writer takes another name")
    func symlinkAtTemporaryPathNotFollowed() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.path + "/keys.json"
        let victim = scratch.path + "/victim"
        #expect(FileManager.default.createFile(atPath: victim, contents: Data("victim".utf8)))
        try FileManager.default.createSymbolicLink(atPath: path + ".tmp-planted", withDestinationPath: victim)
        try FileManager.default.createSymbolicLink(
            atPath: path + ".tmp-dangling", withDestinationPath: scratch.path + "/created-through-link")
        var suffixes = ["planted", "dangling", "fresh"].makeIterator()
        try PrivateFile.writeAtomically(Array("secret".utf8), to: path) { suffixes.next() ?? "unexpected" }

        #expect(FileManager.default.contents(atPath: victim) == Data("victim".utf8))
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/created-through-link"))
        #expect(FileManager.default.contents(atPath: path) == Data("secret".utf8))
        #expect(try scratch.names() == ["keys.json", "keys.json.tmp-dangling", "keys.json.tmp-planted", "victim"])
    }

    @Test("create refuses a symbolic link at its path, dangling or not, without touching its target")
    func createRefusesSymlink() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let link = scratch.path + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: scratch.path + "/nowhere")
        #expect(throws: PrivateFilesError(.open, code: EEXIST, path: link)) { try PrivateFile.create(at: link) }
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/nowhere"))
    }

    @Test("when every temporary name is taken the writer gives up with open/EEXIST and leaves the target alone")
    func givesUpAfterAttempts() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.path + "/keys.json"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("old".utf8)))
        #expect(FileManager.default.createFile(atPath: path + ".tmp-same", contents: Data("leftover".utf8)))
        var calls = 0
        #expect(throws: PrivateFilesError(.open, code: EEXIST, path: path + ".tmp-same")) {
            try PrivateFile.writeAtomically(Array("new".utf8), to: path) {
                calls += 1
                return "same"
            }
        }
        #expect(calls == PrivateFile.temporaryNameAttempts)
        #expect(FileManager.default.contents(atPath: path) == Data("old".utf8))
        #expect(FileManager.default.contents(atPath: path + ".tmp-same") == Data("leftover".utf8))
    }

    @Test("concurrent writers leave one complete file and no temporary files")
    func concurrentWriters() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.path + "/shared.json"
        let writers = 8
        let size = 256 * 1024
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: writers * 4) { iteration in
            let byte = UInt8(iteration % writers) + 0x41
            do {
                try PrivateFile.writeAtomically([UInt8](repeating: byte, count: size), to: path)
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        let contents = try #require(FileManager.default.contents(atPath: path))
        #expect(contents.count == size)
        let first = try #require(contents.first)
        #expect(contents.allSatisfy { $0 == first })
        #expect(Scratch.mode(path) == 0o600)
        #expect(try scratch.names() == ["shared.json"])
    }

    @Test("temporary names are 16 hex digits and differ")
    func randomSuffixes() {
        let suffixes = (0..<64).map { _ in PrivateFile.randomSuffix() }
        #expect(suffixes.allSatisfy { $0.count == 16 && $0.allSatisfy(\.isHexDigit) })
        #expect(Set(suffixes).count == suffixes.count)
    }

    @Test("the folder of a path", arguments: [("a", "."), ("/a", "/"), ("/x/y/a", "/x/y"), ("x/a", "x")])
    func folderPath(path: String, folder: String) {
        #expect(PrivateFile.folderPath(of: path) == folder)
    }
}
