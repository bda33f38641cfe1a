#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `dump(session)` and the debugger show the base URL and the ``snapshot`` (its access token `<redacted>`), never
/// the stored properties that hold tokens (the pair, the tokens of this generation, logouts and saves waiting).
extension AuthSession: CustomReflectable {
    public nonisolated var customMirror: Mirror {
        Mirror(self, children: ["baseURL": baseURL, "snapshot": snapshot], displayStyle: .class)
    }
}
