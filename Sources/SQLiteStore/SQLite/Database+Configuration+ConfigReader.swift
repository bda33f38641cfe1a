package import Configuration
import Store

extension Database.Configuration {
    /// A configuration read from `reader`, each key left out keeping its value in `defaults`.
    ///
    /// Keys, relative to the reader (tokenvend scopes it to `database`): `path` (string). `readerCount` and
    /// `busyTimeout` are not read.
    ///
    /// ```swift
    /// let storage = Database.Configuration(reader: reader.scoped(to: "database"), defaults: .init(path: "db.sqlite"))
    /// ```
    /// Package access on purpose: the optional readers used here fall back to the default on a value of the
    /// wrong type, which is safe only behind tokenvend's loader (`ConfigurationLoader`), whose providers hold
    /// values already checked against the key table (`ConfigurationReaderTests.everyKeyReadWithItsType`).
    package init(reader: ConfigReader, defaults: Self) {
        self = defaults
        path = reader.string(forKey: "path") ?? path
    }
}
