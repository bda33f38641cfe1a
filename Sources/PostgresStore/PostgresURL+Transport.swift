import LoopbackHost

extension PostgresURL {
    /// The libpq keywords that decide where a connection goes and whether the server's certificate is checked.
    static let connectionKeywords: Set<String> = ["host", "hostaddr", "sslmode", "service"]

    /// Whether every server the URL lets libpq connect to is on this host: a Unix-domain socket or a loopback
    /// address, decided from what is written (no name is resolved).
    ///
    /// Each entry of the `host` list (libpq accepts `host1,host2`) counts as local when it is empty (the default
    /// socket), a socket path (starting with `/`, or `@` for Linux's abstract namespace), `localhost` (any case,
    /// exactly: `localhost.example.com` is a name like any other), an IPv4 address in 127.0.0.0/8, or `::1`. A
    /// non-empty `hostaddr` entry replaces its host for connecting, so it must be a loopback address. What the URL
    /// leaves out libpq takes from `PGHOST` and `PGHOSTADDR`, so `environment` is consulted for those; a
    /// connection service (`service=` or `PGSERVICE`) may supply either, naming any host, so a URL that uses one
    /// is local only when it gives both `host` and `hostaddr` itself.
    /// - Parameter environment: the process environment libpq reads (`PGHOST`, `PGHOSTADDR`, `PGSERVICE`).
    public func reachesServerOnlyLocally(environment: [String: String] = [:]) -> Bool {
        let hosts = connectionOptions["host"]
        let addresses = connectionOptions["hostaddr"]
        let usesService = connectionOptions["service"] != nil || environment["PGSERVICE"] != nil
        // A service file may supply whichever of the two the URL leaves out, and it could name any host.
        if usesService && (hosts == nil || addresses == nil) { return false }
        return Self.isLocal(hosts: hosts ?? environment["PGHOST"], addresses: addresses ?? environment["PGHOSTADDR"])
    }

    /// Whether each connection target of libpq's `host` and `hostaddr` lists is local.
    static func isLocal(hosts: String?, addresses: String?) -> Bool {
        let hostList = hosts.map { $0.split(separator: ",", omittingEmptySubsequences: false) } ?? [""]
        let addressList = addresses.map { $0.split(separator: ",", omittingEmptySubsequences: false) } ?? []
        for index in 0..<max(hostList.count, addressList.count) {
            if index < addressList.count, !addressList[index].isEmpty {
                guard LoopbackHost.isLoopbackAddress(String(addressList[index])) else { return false }
            } else {
                guard Self.isLocalHost(index < hostList.count ? String(hostList[index]) : "") else { return false }
            }
        }
        return true
    }

    /// Whether libpq checks the server's certificate: `sslmode` is `verify-full` (chain and host name) or
    /// `verify-ca` (chain only), in the URL or else in `PGSSLMODE`. Any other mode (`require`, `prefer`,
    /// `allow`, `disable`), or none (libpq's default is `prefer`), lets anyone on the path read or change the
    /// traffic, the password included. A connection service may set the mode, so with one the URL must state it.
    /// - Parameter environment: the process environment libpq reads (`PGSSLMODE`, `PGSERVICE`).
    public func verifiesServerCertificate(environment: [String: String] = [:]) -> Bool {
        let mode: String?
        if let given = connectionOptions["sslmode"] {
            mode = given
        } else if connectionOptions["service"] != nil || environment["PGSERVICE"] != nil {
            mode = nil
        } else {
            mode = environment["PGSSLMODE"]
        }
        return mode == "verify-full" || mode == "verify-ca"
    }

    /// The `sslmode` written in the URL, if any (for messages: it is not secret).
    public var sslMode: String? { connectionOptions["sslmode"] }

    /// Whether one written host is this machine: empty (the default socket), a socket path, `localhost`, or a
    /// loopback address.
    static func isLocalHost(_ host: String) -> Bool {
        if host.isEmpty || host.hasPrefix("/") || host.hasPrefix("@") { return true }
        return LoopbackHost.contains(host)
    }

    /// Why this URL may not be used unless `database.allowUnverifiedTLS` is true, or nil when it may: it reaches a
    /// server beyond this host (``reachesServerOnlyLocally(environment:)``) and libpq would not check that
    /// server's certificate (``verifiesServerCertificate(environment:)``). Names the host and the `sslmode`, never
    /// the password.
    /// - Parameter environment: the process environment (libpq's `PGHOST`, `PGHOSTADDR`, `PGSSLMODE`, `PGSERVICE`).
    public func unverifiedTLSReason(environment: [String: String]) -> String? {
        guard !reachesServerOnlyLocally(environment: environment), !verifiesServerCertificate(environment: environment)
        else { return nil }
        let host = self.host.map { "host \($0)" } ?? "a host given outside the URL"
        let mode = sslMode.map { "sslmode=\($0)" } ?? "no sslmode (libpq's default, prefer)"
        return "names \(host), not this machine, with \(mode): the server's certificate is not checked, so anyone "
            + "on the network path could read the password and the data or pose as the database; use "
            + "sslmode=verify-full (with the server's CA in sslrootcert), or set database.allowUnverifiedTLS to true "
            + "on a private network"
    }
}
