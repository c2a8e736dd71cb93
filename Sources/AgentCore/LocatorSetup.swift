import BeaconCore
import Settings

/// What the locator `run` embeds (`locator.enabled`) is built from: its own section and what it
/// reads of the rest — the QoS of its messages, the distance model it recomputes calibrated
/// distances with, Home Assistant discovery (its room topic and trackers) and the beacons and
/// devices it announces there, and the gateway id it is named after. When a reload or a layer set
/// over MQTT changes any of it, the agent core asks its shell to start, reconfigure or stop the
/// locator (`AgentAction.configureLocator`); anything else leaves the locator alone.
package struct LocatorSetup: Sendable, Equatable {
    let settings: LocatorSettings
    let qos: Int
    let distance: DistanceSettings
    let homeAssistant: HomeAssistantSettings
    let beacons: [BeaconOverride]
    let devices: [DeviceSettings]
    let gatewayID: String

    package init(_ c: Configuration) {
        settings = c.locator
        qos = c.mqtt.qos
        distance = c.ranging.distance
        homeAssistant = c.homeAssistant
        beacons = c.beacons
        devices = c.devices
        gatewayID = c.gateway.id
    }
}
