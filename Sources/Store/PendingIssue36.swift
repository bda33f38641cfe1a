// TEMPORARY (issue 36 contracts): the backends' passkey stores land on branch i36-store, which deletes this file.
extension StoreBackend {
    /// Placeholder until the store branch implements `passkeys` on both backends.
    public var passkeys: any PasskeyStoring { fatalError("issue 36: passkey store pending") }
}
