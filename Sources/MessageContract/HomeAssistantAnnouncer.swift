import BeaconCore
import Settings
import Vocabulary

/// What a gateway's and a locator's discovery share: a list of entities, announced retained on
/// connect and again on Home Assistant's birth message, and cleared by empty retained messages.
package protocol HomeAssistantAnnouncer {
    var settings: HomeAssistantSettings { get }
    var configuration: Configuration { get }
    var softwareVersion: String { get }
    /// Every entity, in publishing order (devices that others name as `via_device` first).
    func entities() -> [HomeAssistantEntity]
}

extension HomeAssistantAnnouncer {
    /// Where HA publishes its birth (`online`) and will (`offline`) messages; subscribe to it.
    package var birthTopic: String { TopicTree.homeAssistantBirth(prefix: settings.prefix) }

    /// Every discovery config, retained; empty when `homeassistant.discovery` is off.
    package func messages() -> [OutboundMessage] {
        guard settings.discovery else { return [] }
        return entities().map {
            $0.message(prefix: settings.prefix, qos: configuration.mqtt.qos, softwareVersion: softwareVersion)
        }
    }

    /// HA restarted (birth payload `online`) and forgot non-retained state: publish everything again.
    package func messages(onBirth payload: String) -> [OutboundMessage] {
        payload == Availability.online.rawValue ? messages() : []
    }

    /// Empty retained messages on the same topics: removes the entities from HA, e.g. when
    /// discovery is turned off or a beacon or region is removed on reload.
    package func removals() -> [OutboundMessage] {
        entities().map { $0.removal(prefix: settings.prefix, qos: configuration.mqtt.qos) }
    }
}
