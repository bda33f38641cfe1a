public import StrictJSON

/// Who may vend one vendor's tokens, beyond being signed in: `vendors.<name>.roles` and
/// `vendors.<name>.requireVerifiedEmail`. A caller outside them is refused (403 `insufficient_scope`) before the
/// body is read, and nothing is signed.
///
/// ```swift
/// let access = try VendorAccess(entry: entry)          // {"roles": ["staff"], "requireVerifiedEmail": true, …}
/// guard access.permits(role: caller.role, emailVerified: caller.isEmailVerified) else { throw … }
/// ```
public struct VendorAccess: Sendable, Equatable {
    /// The roles that may vend; `nil` (the default, `roles` absent) means every role. Never empty.
    public let roles: Set<String>?
    /// Whether only a caller with a verified email may vend. Default: false.
    public let requireVerifiedEmail: Bool
    /// `vendors.<name>.integrity`: `off`, `report` or `require`, replacing `integrity.routes.vend` for this vendor;
    /// nil (the default) keeps the route's.
    public let integrity: String?

    /// The values `integrity` accepts (the app-integrity modes).
    public static let integrityModes = ["off", "report", "require"]

    /// Every signed-in caller: no `roles`, no `requireVerifiedEmail` (`stream.*` and `moss.*`, which have neither).
    public static let everyone = VendorAccess(roles: nil, requireVerifiedEmail: false)

    /// The entry members this type reads; every entry, preset or template, may have them.
    static let members = ["roles", "requireVerifiedEmail", "integrity"]

    /// Creates access rules; `roles` must not be empty (`nil` is every role).
    public init(roles: Set<String>?, requireVerifiedEmail: Bool, integrity: String? = nil) {
        precondition(roles?.isEmpty != true, "an empty role list would refuse everyone; use nil for every role")
        self.roles = roles
        self.requireVerifiedEmail = requireVerifiedEmail
        self.integrity = integrity
    }

    /// Reads `roles` (an array of non-empty role strings, at least one), `requireVerifiedEmail` (a Boolean) and
    /// `integrity` (`off` | `report` | `require`) from a `vendors.<name>` entry; other members are left to
    /// `VendorConfiguration.parse`.
    ///
    /// - Throws: `VendorTemplateError` at `roles` (not an array, empty, an element that is not a non-empty
    ///   string), `requireVerifiedEmail` (not a Boolean) or `integrity` (not one of the modes).
    public init(entry: JSONObject) throws(VendorTemplateError) {
        let reader = try MemberReader(entry, path: "", allowed: entry.map(\.name))
        var roles: Set<String>?
        if let elements = try reader.array("roles") {
            guard !elements.isEmpty else {
                let reason =
                    "must list at least one role (an empty list would refuse everyone; leave roles out for every role)"
                throw reader.fail("roles", reason)
            }
            var names: Set<String> = []
            for (index, element) in elements.enumerated() {
                guard case .string(let role) = element else {
                    throw VendorTemplateError(
                        path: "roles[\(index)]", reason: "expected a role string, got \(element.typeName)")
                }
                guard !role.isEmpty else {
                    throw VendorTemplateError(path: "roles[\(index)]", reason: "must not be empty")
                }
                names.insert(role)
            }
            roles = names
        }
        let integrity = try reader.string("integrity")
        if let integrity, !Self.integrityModes.contains(integrity) {
            throw reader.fail("integrity", "expected off, report or require")
        }
        self.init(
            roles: roles, requireVerifiedEmail: try reader.bool("requireVerifiedEmail") ?? false, integrity: integrity)
    }

    /// Whether a caller with this role and email state may vend.
    public func permits(role: String, emailVerified: Bool) -> Bool {
        if requireVerifiedEmail, !emailVerified { return false }
        return roles?.contains(role) ?? true
    }
}
