/// RFC 3986 §6.2.2 and §6.2.3 normalisation of an `htu` or a request URI, for comparison only: scheme and host in
/// lower case, the default port dropped, percent-encodings of unreserved characters decoded and the others in
/// upper case, dot segments removed, an empty path as `/`; query and fragment dropped (RFC 9449 §4.3).
public enum DPoPTargetURI {
    /// The normalised form, or nil for a string that is not an absolute `http` or `https` URI with a host.
    public static func normalized(_ uri: String) -> String? {
        fatalError("PendingIssue35: DPoP module")
    }
}
