public import Foundation
public import TokenClient

/// A ``KeychainBackend`` holding items in memory, with the Keychain's failures on demand: locked (before the first
/// unlock), an item another process adds between an update and an add, any status. It records every call.
public final class FakeKeychain: KeychainBackend {
    /// A call the store made, with what it passed (the data aside).
    public enum Call: Sendable, Equatable {
        case copyData(KeychainItem)
        case update(KeychainItem)
        case add(KeychainItem, KeychainAccessibility)
        case delete(KeychainItem)
    }

    private struct State {
        var items: [KeychainItem: Data]
        var accessibility: [KeychainItem: KeychainAccessibility] = [:]
        var isLocked = false
        var racingData: Data?
        var injected: [Int32] = []
        var calls: [Call] = []
    }

    private let state: Locked<State>

    /// Creates a keychain holding `items`.
    public init(items: [KeychainItem: Data] = [:]) {
        state = Locked(State(items: items))
    }

    /// The calls made so far, oldest first.
    public var calls: [Call] { state.withLock { $0.calls } }

    /// The data of `item`, `nil` when there is none.
    public func data(of item: KeychainItem) -> Data? {
        state.withLock { $0.items[item] }
    }

    /// The accessibility `item` was added with, `nil` when it was not added through ``add(_:data:accessibility:)``.
    public func accessibility(of item: KeychainItem) -> KeychainAccessibility? {
        state.withLock { $0.accessibility[item] }
    }

    /// Stores `data` as `item`'s data (`nil` removes it), as another process would; not recorded as a call.
    public func setData(_ data: Data?, of item: KeychainItem) {
        state.withLock { $0.items[item] = data }
    }

    /// From now on every call answers `errSecInteractionNotAllowed` and changes nothing, as before the first unlock.
    public func lock() {
        state.withLock { $0.isLocked = true }
    }

    /// Ends ``lock()``.
    public func unlock() {
        state.withLock { $0.isLocked = false }
    }

    /// The next ``add(_:data:accessibility:)`` finds that another process added the item with `data` just before:
    /// it stores `data` and answers `errSecDuplicateItem`. Once.
    public func addFindsItemAddedMeanwhile(holding data: Data) {
        state.withLock { $0.racingData = data }
    }

    /// The next call answers `status` and changes nothing (a `copyData` returns no data). Several calls queue up.
    public func failNextCall(with status: Int32) {
        state.withLock { $0.injected.append(status) }
    }

    public func copyData(_ item: KeychainItem) -> (status: Int32, data: Data?) {
        state.withLock { state in
            if let failure = Self.failure(recording: .copyData(item), in: &state) { return (failure, nil) }
            guard let data = state.items[item] else { return (KeychainStatus.itemNotFound, nil) }
            return (KeychainStatus.success, data)
        }
    }

    public func update(_ item: KeychainItem, data: Data) -> Int32 {
        state.withLock { state in
            if let failure = Self.failure(recording: .update(item), in: &state) { return failure }
            guard state.items[item] != nil else { return KeychainStatus.itemNotFound }
            state.items[item] = data
            return KeychainStatus.success
        }
    }

    public func add(_ item: KeychainItem, data: Data, accessibility: KeychainAccessibility) -> Int32 {
        state.withLock { state in
            if let failure = Self.failure(recording: .add(item, accessibility), in: &state) { return failure }
            if let racing = state.racingData {
                state.racingData = nil
                state.items[item] = racing
                return KeychainStatus.duplicateItem
            }
            guard state.items[item] == nil else { return KeychainStatus.duplicateItem }
            state.items[item] = data
            state.accessibility[item] = accessibility
            return KeychainStatus.success
        }
    }

    public func delete(_ item: KeychainItem) -> Int32 {
        state.withLock { state in
            if let failure = Self.failure(recording: .delete(item), in: &state) { return failure }
            guard state.items.removeValue(forKey: item) != nil else { return KeychainStatus.itemNotFound }
            state.accessibility[item] = nil
            return KeychainStatus.success
        }
    }

    /// Records `call`, then returns the status it must fail with: an injected one, or `errSecInteractionNotAllowed`
    /// while locked; `nil` when it proceeds.
    private static func failure(recording call: Call, in state: inout State) -> Int32? {
        state.calls.append(call)
        if !state.injected.isEmpty { return state.injected.removeFirst() }
        return state.isLocked ? KeychainStatus.interactionNotAllowed : nil
    }
}
