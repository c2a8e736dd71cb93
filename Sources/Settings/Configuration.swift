import BeaconCore
import Vocabulary

/// The whole agent configuration, as `etc/beacon2mqtt.yaml` describes it. Every default here is
/// the documented default; BeaconConfig fills it from YAML and validates it.
package struct Configuration: Sendable, Equatable {
    package var gateway = GatewaySettings()
    /// `scanner:` and `advertise:`, what the gateway does with its Bluetooth adapter.
    package var bluetooth = BluetoothSettings()
    package var mqtt = MQTTSettings()
    package var monitoring = MonitoringSettings()
    package var ranging = RangingSettings()
    /// Empty means: track every beacon seen.
    package var regions: [BeaconRegion] = []
    package var beacons: [BeaconOverride] = []
    /// Phones, watches and tags by IRK or fixed address, tracked like beacons.
    package var devices: [DeviceSettings] = []
    /// Floor/room location across gateways (`beacon2mqtt locate`, or inside `run` when enabled).
    package var locator = LocatorSettings()
    /// Home Assistant MQTT discovery and the `mqtt_room` feed (both off by default).
    package var homeAssistant = HomeAssistantSettings()
    /// Per-beacon telemetry: Eddystone-TLM/URL, TX power, advertising interval.
    package var telemetry = TelemetrySettings()
    /// Configuration layers over MQTT (`<base>/fleet/config/set`, `<base>/gateways/<gw>/config/set`).
    package var remoteConfig = RemoteConfigSettings()
    /// The Prometheus endpoint (off by default).
    package var metrics = MetricsSettings()
    /// Other projects' formats the gateway also publishes in (`compat:`; none by default).
    package var compat: [CompatFormat] = []
    package var logLevel: LogLevel = .info

    package init() {}
}

extension Configuration {
    /// The beacon overrides, then one per device: every configured subject with a name, as Home
    /// Assistant discovery lists them (monitoring gets the same list through `MonitorSettings`).
    package var beaconsAndDevices: [BeaconOverride] { beacons + devices.map(\.override) }
}
