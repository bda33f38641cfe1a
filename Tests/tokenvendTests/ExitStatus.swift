import ArgumentParser
import Testing

/// The exit status of a command run in a test: 0 when `body` returned, else the `ExitCode` it threw (any other
/// error is recorded as an issue and gives -1).
func exitStatus(_ body: () async throws -> Void) async -> Int32 {
    do {
        try await body()
        return 0
    } catch let exit as ExitCode {
        return exit.rawValue
    } catch {
        Issue.record("unexpected \(error)")
        return -1
    }
}
