/// The `claims` object compiled at startup: literal parts pre-serialized, placeholders resolved to `Placeholder`.
struct ClaimsTemplate: Sendable {
}
