import Testing

@testable import PostgresStore

/// Whether a URL reaches a server beyond this host, and whether libpq would check that server's certificate:
/// decided from what is written (and libpq's `PG…` variables), without resolving a name or connecting.
@Suite struct PostgresURLTransportTests {
    @Test(
        "a URL naming a socket, localhost or a loopback address reaches only this host",
        arguments: [
            "postgres:///tokenvend",
            "postgres://tokenvend@/tokenvend",
            "postgres://tokenvend@localhost/tokenvend",
            "postgres://tokenvend@LocalHost:5432/tokenvend",
            "postgres://tokenvend@127.0.0.1:5432/tokenvend",
            "postgres://tokenvend@127.1.2.3/tokenvend",
            "postgres://tokenvend@127.255.255.254/tokenvend",
            "postgres://tokenvend@[::1]:5432/tokenvend",
            "postgres://tokenvend@[0:0:0:0:0:0:0:1]/tokenvend",
            "postgres://tokenvend@/tokenvend?host=/var/run/postgresql",
            "postgres://tokenvend@%2Fvar%2Frun%2Fpostgresql/tokenvend",
            "postgres://tokenvend@localhost/tokenvend?host=/tmp",
            "postgres://tokenvend@localhost:5432,127.0.0.2:5433/tokenvend",
            "postgres://tokenvend@db.example/tokenvend?hostaddr=127.0.0.1",
            "postgresql://tokenvend@/tokenvend?host=@abstract-socket",
        ])
    func local(url: String) throws {
        let parsed = try PostgresURL(url)
        #expect(parsed.reachesServerOnlyLocally())
    }

    @Test(
        "a URL naming any other host, or a look-alike of localhost, reaches beyond this host",
        arguments: [
            "postgres://u@10.0.0.5/db",
            "postgres://u@10.0.0.5/db?sslmode=require",
            "postgres://u@db.example:5432/db",
            "postgres://u@localhost.evil.com/db",
            "postgres://u@localhost./db",
            "postgres://u@127.0.0.1.evil.com/db",
            "postgres://u@128.0.0.1/db",
            "postgres://u@[::2]/db",
            "postgres://u@[::ffff:10.0.0.5]/db",
            "postgres://u@localhost,db.example/db",
            "postgres://u@localhost/db?hostaddr=10.0.0.5",
            "postgres://u@/db?host=db.example",
            "postgres://u@/db?service=production",
            "postgres://u@localhost/db?service=production",
        ])
    func remote(url: String) throws {
        let parsed = try PostgresURL(url)
        #expect(!parsed.reachesServerOnlyLocally())
    }

    @Test("a host left out of the URL is libpq's PGHOST or PGHOSTADDR, and a service may name any host")
    func environment() throws {
        let bare = try PostgresURL("postgres://u@/db")
        #expect(bare.reachesServerOnlyLocally(environment: [:]))
        #expect(bare.reachesServerOnlyLocally(environment: ["PGHOST": "/var/run/postgresql"]))
        #expect(bare.reachesServerOnlyLocally(environment: ["PGHOST": "localhost"]))
        #expect(!bare.reachesServerOnlyLocally(environment: ["PGHOST": "db.example"]))
        #expect(!bare.reachesServerOnlyLocally(environment: ["PGHOSTADDR": "10.0.0.5"]))
        #expect(!bare.reachesServerOnlyLocally(environment: ["PGSERVICE": "production"]))
        let named = try PostgresURL("postgres://u@localhost/db")
        #expect(named.reachesServerOnlyLocally(environment: ["PGHOST": "db.example"]))
        #expect(!named.reachesServerOnlyLocally(environment: ["PGHOSTADDR": "10.0.0.5"]))
        let both = try PostgresURL("postgres://u@localhost/db?hostaddr=127.0.0.1")
        #expect(both.reachesServerOnlyLocally(environment: ["PGSERVICE": "production", "PGHOSTADDR": "10.0.0.5"]))
    }

    @Test(
        "only sslmode verify-full or verify-ca checks the server's certificate",
        arguments: [
            ("postgres://u@10.0.0.5/db?sslmode=verify-full", true),
            ("postgres://u@10.0.0.5/db?sslmode=verify-ca", true),
            ("postgres://u@10.0.0.5/db?sslmode=require", false),
            ("postgres://u@10.0.0.5/db?sslmode=prefer", false),
            ("postgres://u@10.0.0.5/db?sslmode=allow", false),
            ("postgres://u@10.0.0.5/db?sslmode=disable", false),
            ("postgres://u@10.0.0.5/db", false),
            ("postgres://u@10.0.0.5/db?sslrootcert=/etc/ssl/db.pem", false),
        ])
    func certificate(url: String, verifies: Bool) throws {
        #expect(try PostgresURL(url).verifiesServerCertificate() == verifies)
    }

    @Test("an sslmode left out of the URL is libpq's PGSSLMODE, unless a service may set it")
    func certificateFromEnvironment() throws {
        let bare = try PostgresURL("postgres://u@10.0.0.5/db")
        #expect(bare.verifiesServerCertificate(environment: ["PGSSLMODE": "verify-full"]))
        #expect(!bare.verifiesServerCertificate(environment: ["PGSSLMODE": "require"]))
        #expect(!bare.verifiesServerCertificate(environment: ["PGSSLMODE": "verify-full", "PGSERVICE": "production"]))
        let written = try PostgresURL("postgres://u@10.0.0.5/db?sslmode=require")
        #expect(!written.verifiesServerCertificate(environment: ["PGSSLMODE": "verify-full"]))
        let service = try PostgresURL("postgres://u@10.0.0.5/db?sslmode=verify-ca&service=production")
        #expect(service.verifiesServerCertificate())
    }

    @Test(
        "loopback addresses are written dotted quads in 127.0.0.0/8 or ::1, nothing a resolver might read otherwise",
        arguments: [
            ("127.0.0.1", true), ("127.9.8.7", true), ("::1", true), ("0::0:1", true),
            ("127.1", false), ("0x7f.0.0.1", false), ("2130706433", false), ("127.0.0.1 ", false), ("", false),
            ("::", false), ("::ffff:127.0.0.1", false), ("126.255.255.255", false), ("fe80::1", false),
        ])
    func loopbackAddresses(text: String, loopback: Bool) {
        // A hostaddr decides over the (remote) host name: local exactly when the address is loopback.
        #expect(PostgresURL.isLocal(hosts: "10.0.0.5", addresses: text) == loopback)
    }
}
