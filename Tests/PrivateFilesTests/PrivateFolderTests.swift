import Foundation
import Testing

@testable import PrivateFiles

@Suite("PrivateFolder", .serialized)
struct PrivateFolderTests {
    @Test("a new folder and its new parents are 0700 whatever the umask", arguments: [0, 0o022, 0o277] as [mode_t])
    func privateModes(umaskValue: mode_t) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try Scratch.withUmask(umaskValue) { () throws(PrivateFilesError) in
            try PrivateFolder.create(scratch.path + "/a/b/c")
        }
        for folder in ["/a", "/a/b", "/a/b/c"] {
            #expect(Scratch.mode(scratch.path + folder) == 0o700, "\(folder)")
        }
    }

    @Test("existing folders keep their mode, the last one and its parents")
    func existingKeepMode() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(
            atPath: scratch.path + "/open/shared", withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.path + "/open")
        try FileManager.default.setAttributes([.posixPermissions: 0o775], ofItemAtPath: scratch.path + "/open/shared")
        try PrivateFolder.create(scratch.path + "/open/shared")
        try PrivateFolder.create(scratch.path + "/open/shared/new/")
        #expect(Scratch.mode(scratch.path + "/open") == 0o755)
        #expect(Scratch.mode(scratch.path + "/open/shared") == 0o775)
        #expect(Scratch.mode(scratch.path + "/open/shared/new") == 0o700)
    }

    @Test("without private parents only the folder itself is 0700; the parents get 0777 less the umask")
    func publicParents() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try Scratch.withUmask(0o022) { () throws(PrivateFilesError) in
            try PrivateFolder.create(scratch.path + "/config/tokenvend", privateParents: false)
        }
        #expect(Scratch.mode(scratch.path + "/config") == 0o755)
        #expect(Scratch.mode(scratch.path + "/config/tokenvend") == 0o700)
    }

    @Test("a file where the folder should be is mkdir/ENOTDIR, and so is one in place of a parent")
    func fileInTheWay() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let blocker = scratch.path + "/blocker"
        #expect(FileManager.default.createFile(atPath: blocker, contents: Data()))
        #expect(throws: PrivateFilesError(.mkdir, code: ENOTDIR, path: blocker)) {
            try PrivateFolder.create(blocker)
        }
        #expect(throws: PrivateFilesError(.mkdir, code: ENOTDIR, path: blocker + "/below")) {
            try PrivateFolder.create(blocker + "/below/deeper")
        }
    }

    @Test("relative paths are created below the working folder", arguments: [".", ""])
    func relative(prefix: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let previous = FileManager.default.currentDirectoryPath
        #expect(FileManager.default.changeCurrentDirectoryPath(scratch.path))
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        let folder = prefix.isEmpty ? "rel/sub" : prefix + "/rel/sub"
        try PrivateFolder.create(folder)
        #expect(Scratch.mode(scratch.path + "/rel/sub") == 0o700)
        #expect(Scratch.mode(scratch.path + "/rel") == 0o700)
    }
}
