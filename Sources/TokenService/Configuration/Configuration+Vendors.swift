package import StrictJSON
package import VendorTokens

extension TokenServiceConfiguration {
    /// One `vendors.<name>` entry, compiled: a third-party token `POST /vend/<name>` signs (or, with the `moss`
    /// preset, fetches), declared as a template or a preset plus credentials. The language is VendorTokens'
    /// (`VendorConfiguration`), parsed once while loading, so a bad entry stops startup with a message naming
    /// the member; docs/OPERATIONS.md "Vendors" describes it.
    public struct VendorSettings: Sendable, Equatable, CustomStringConvertible {
        /// The vendor's name: the last segment of `/vend/<name>`, `[a-z0-9][a-z0-9_-]{0,31}`.
        public let name: String
        /// The compiled template, or the Moss settings.
        package let entry: VendorEntry
        /// Who may call it (`roles`, `requireVerifiedEmail`).
        package let access: VendorAccess
        /// A `livekit` or `twilio` entry without `roomsByRole` (startup warns).
        package let opensEveryRoom: Bool
        /// The entry as configured, every `…File` member replaced by the file's text: compared by `==`, never shown.
        let resolved: JSONObject

        /// `VendorSettings(<name>, preset: <preset>)`, never key material.
        public var description: String {
            let preset = resolved["preset"]?.stringValue.map { ", preset: \($0)" } ?? ""
            return "VendorSettings(\(name)\(preset))"
        }

        /// Same name and same configured entry.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.name == rhs.name && lhs.resolved == rhs.resolved
        }
    }
}
