import FoundationEssentials
import PrivateFiles

/// Where the command-line client keeps its session: `--session-file`, else
/// `$XDG_CONFIG_HOME/tokenvend/session.json`, else `~/.config/tokenvend/session.json`.
struct SessionFileLocation: Equatable {
    /// The session file (the ``FileTokenStore`` JSON, mode 0600).
    let file: URL

    /// Resolves the session file.
    /// - Parameters:
    ///   - explicitPath: `--session-file`, relative paths taken from `workingDirectory`.
    ///   - environment: read for `XDG_CONFIG_HOME` and `HOME`. A relative or empty `XDG_CONFIG_HOME` is
    ///     ignored, as the XDG Base Directory specification asks.
    ///   - homeDirectory: used when `HOME` is unset or empty (the password database's home).
    ///   - workingDirectory: resolves a relative `explicitPath`.
    static func resolve(
        explicitPath: String?,
        environment: [String: String],
        homeDirectory: @autoclosure () -> String = FileManager.default.homeDirectoryForCurrentUser.path,
        workingDirectory: @autoclosure () -> String = FileManager.default.currentDirectoryPath
    ) -> SessionFileLocation {
        if let explicitPath, !explicitPath.isEmpty {
            let base = URL(fileURLWithPath: workingDirectory(), isDirectory: true)
            return SessionFileLocation(file: URL(fileURLWithPath: explicitPath, relativeTo: base).standardizedFileURL)
        }
        let configHome: URL
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            configHome = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? homeDirectory()
            configHome = URL(fileURLWithPath: home, isDirectory: true).appending(
                path: ".config", directoryHint: .isDirectory)
        }
        let file = configHome.appending(path: "tokenvend", directoryHint: .isDirectory)
            .appending(path: "session.json", directoryHint: .notDirectory)
        return SessionFileLocation(file: file.standardizedFileURL)
    }

    /// The folder holding the session file.
    var folder: URL { file.deletingLastPathComponent() }

    /// Creates the folder when it is missing: its missing parents with the default mode, the folder itself
    /// with mode 0700 (exactly, whatever the umask; ``PrivateFolder/create(_:privateParents:)``). An existing
    /// folder, or one created meanwhile by someone else, is left as it is.
    /// - Throws: ``ClientCommandError/sessionFile(_:)`` when it cannot be created or is not a folder.
    func createFolderIfMissing() throws {
        var isDirectory = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) {
            guard isDirectory else {
                throw ClientCommandError.sessionFile("\(folder.path) is not a folder")
            }
            return
        }
        do {
            try PrivateFolder.create(folder.path, privateParents: false)
        } catch {
            if error.path != folder.path {
                throw ClientCommandError.sessionFile("cannot create \(folder.deletingLastPathComponent().path)")
            }
            if error.call == .chmod {
                throw ClientCommandError.sessionFile("cannot set the mode of \(folder.path): errno \(error.code)")
            }
            throw ClientCommandError.sessionFile("cannot create \(folder.path): errno \(error.code)")
        }
    }
}
