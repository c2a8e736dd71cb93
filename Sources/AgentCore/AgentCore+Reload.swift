import BeaconCore
import BeaconWire
import MessageContract
import Settings
import Vocabulary

/// Reloading in the agent core: SIGHUP's file (and, through `adopt`, a configuration layer set
/// over MQTT) replaces the running configuration the same way.
extension AgentCore {
    /// SIGHUP's file, read by the shell: applied (unchanged regions keep their state), or logged
    /// and the running configuration kept.
    package mutating func reloaded(_ result: Result<Configuration, any Error>) {
        reloaded(update: result.map { ConfigurationUpdate(configuration: $0) })
    }

    /// `reloaded(_:)` with layers set over MQTT: their effective configuration is published too.
    package mutating func reloaded(update result: Result<ConfigurationUpdate, any Error>) {
        defer { actions.append(.notify(.ready(status: serviceStatus))) }
        switch result {
        case .success(let update):
            adopt(update)
            log(.info, "configuration reloaded", ["regions": String(update.configuration.regions.count)])
        case .failure(let error):
            log(.error, "reload failed; keeping the running configuration", ["error": "\(error)"])
        }
    }

    /// Runs on `next` from now on: unchanged regions and beacons keep their state, removed ones are
    /// withdrawn, and Home Assistant discovery follows; the shell is asked to follow a new
    /// `log_level` and a changed embedded locator (`LocatorSetup`).
    mutating func apply(_ next: Configuration) {
        if next.mqtt != configuration.mqtt || next.gateway.id != configuration.gateway.id {
            log(.warning, "mqtt and gateway.id changes take effect after a restart")
        }
        pipeline.reconfigure(next, at: pipelineNow ?? payloadTime, into: &out)
        enqueueOutput()
        let previousDiscovery = homeAssistant
        let advertiseChanged = next.bluetooth.advertise != configuration.bluetooth.advertise
        // The scan mode and the position are in the announcement only (the scan mode needs a restart).
        let announcementChanged =
            next.bluetooth.scanner.mode != configuration.bluetooth.scanner.mode
            || next.gateway.position != configuration.gateway.position
        if next.logLevel != configuration.logLevel { actions.append(.setLogLevel(next.logLevel)) }
        if LocatorSetup(next) != LocatorSetup(configuration) { actions.append(.configureLocator(next)) }
        configuration = next
        // The radio follows `advertise:`; only the announcement follows the scan mode and the position.
        if advertiseChanged { readvertise() } else if announcementChanged { announceAdvertising(onlyIfChanged: true) }
        if isConnected {
            // Entities of removed beacons and regions disappear from Home Assistant; the rest are refreshed.
            let current = homeAssistant?.messages() ?? []
            let kept = Set(current.map(\.topic))
            out += (previousDiscovery?.removals() ?? []).filter { !kept.contains($0.topic) } + current
            enqueueOutput()
        }
    }
}
