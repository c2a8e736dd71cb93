/// `remote_config:`: whether the gateway takes configuration layers from the broker.
package struct RemoteConfigSettings: Sendable, Equatable {
    /// Off by default: a gateway takes configuration from the broker only when its owner says so.
    package var enabled = false
    package init() {}
}
