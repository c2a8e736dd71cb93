/// Another project's message format a gateway also publishes in, beside its own (`compat:`,
/// docs/locator.md, "ESPresense-companion"). Off unless listed.
package enum CompatFormat: String, Sendable, Equatable, CaseIterable {
    /// ESPresense's device reports, `espresense/devices/<id>/<gateway.id>`: the gateway is one more
    /// node to ESPresense-companion.
    case espresense
}
