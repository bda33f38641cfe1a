package import StrictJSON

extension TokenServiceConfiguration {
    /// One `vendors.<name>` entry: a third-party token `POST /vend/<name>` signs (or, with the `moss` preset,
    /// fetches), declared as a template or a preset plus credentials. The language is VendorTokens'
    /// (`VendorConfiguration.parse`), checked while loading, so a bad entry stops startup with a message naming
    /// the member; docs/OPERATIONS.md "Vendors" describes it.
    public struct VendorSettings: Sendable, Equatable, CustomStringConvertible {
        /// The vendor's name: the last segment of `/vend/<name>`, `[a-z0-9][a-z0-9_-]{0,31}`.
        public var name: String
        /// The entry as configured, every `…File` member already replaced by the file's text: it holds secrets,
        /// so it is never logged (``description`` shows the name and preset only).
        package var entry: JSONObject

        package init(name: String, entry: JSONObject) {
            self.name = name
            self.entry = entry
        }

        /// `VendorSettings(<name>, preset: <preset>)`, never key material.
        public var description: String {
            let preset = entry["preset"]?.stringValue.map { ", preset: \($0)" } ?? ""
            return "VendorSettings(\(name)\(preset))"
        }
    }
}
