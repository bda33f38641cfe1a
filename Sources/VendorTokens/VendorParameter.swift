/// One declared request parameter (`parameters.<name>`), with its rules compiled.
struct VendorParameter: Sendable {
    /// The parameter name: `[A-Za-z_][A-Za-z0-9_]{0,63}`.
    let name: String
}
