import BeaconCore
import BeaconWire
import MessageContract
import Settings

/// The gateway's own advertisement (`advertise:`) in the agent core: a changed section goes to the
/// source as an `advertise` action (whether SIGHUP's file or a configuration layer changed it), and
/// the radio's state comes back from the source and is published, retained, on
/// `<base>/gateways/<gw>/advertising` with what is advertised. Only for a source that advertises
/// (`AgentOptions.announcesAdvertising`: the live adapter).
extension AgentCore {
    /// The source reported a new state of the radio.
    mutating func advertisingChanged(_ state: AdvertisingState) {
        guard configuration.bluetooth.advertise != nil else { return }
        advertising.state = state
        announceAdvertising(onlyIfChanged: true)
    }

    /// `advertise:` (or the scan mode) changed: the source readvertises, the state starts over.
    mutating func readvertise() {
        guard options.announcesAdvertising else { return }
        actions.append(.advertise(configuration.bluetooth.advertise))
        advertising.state = nil
        announceAdvertising(onlyIfChanged: true)
    }

    /// Publishes the announcement: on every connect (the broker may have lost it), and when its
    /// payload changed (`onlyIfChanged`) while connected; a reconnect publishes the latest anyway.
    mutating func announceAdvertising(onlyIfChanged: Bool = false) {
        guard options.announcesAdvertising else { return }
        if onlyIfChanged, !isConnected { return }
        let message = AdvertisingAnnouncement.message(
            configuration, state: advertising.state, waitingFor: sourceHealth.degradedReason)
        let text = message.payload.text
        if onlyIfChanged, text == advertising.announced { return }
        advertising.announced = text
        out.append(message)
        enqueueOutput()
    }
}
