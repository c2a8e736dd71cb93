import BeaconCore
import BeaconWire
import MessageContract
import Settings
import Vocabulary

/// The whole pure path: HCI packet bytes → advertising reports → beacon frames → monitoring and
/// ranging (`MonitoringEvent`s) → MQTT messages (`MessageComposer`). Every source (live HCI,
/// capture replay, simulator) feeds this one type, so they all produce the same messages for the
/// same packets.
///
/// Monitoring starts at the first packet's (or `advance`'s) timestamp, so a replay's clock is the
/// capture's own. Undecodable bytes are counted (`counters.malformed`) and skipped, never fatal.
///
/// A report without a beacon frame is looked up among the configured devices (`DeviceResolver`:
/// a fixed address, or an RPA resolved with `ah` by the injected `IdentityResolver`); one that is
/// no configured device is dropped, only counted.
package struct Pipeline: Sendable {
    package private(set) var configuration: Configuration
    /// The monitor, once monitoring began.
    package var monitor: BeaconMonitor? { started ? engine : nil }
    /// Not an optional: across the module boundary every `monitor!` cost an outlined tag check per
    /// report. A placeholder until `begin`.
    private var engine: BeaconMonitor
    private var started = false
    var countersStorage = PipelineCounters()
    /// The last decoding error, for a debug log line.
    package private(set) var lastError: DecodeError?
    var composer: MessageComposer
    /// Beside the monitor: TLM/URL association and the telemetry rate limit (nil when off).
    private var telemetry: TelemetryTracker?
    /// The monitor's events of one call, reused so the per-report path allocates nothing.
    var events: [MonitoringEvent] = []
    /// With `defersRanging`: the ranging results a tick left uncomposed.
    var deferredRanging = DeferredRanging()
    /// Ticks whose ranging results were deferred so far.
    package internal(set) var deferredTicks = 0
    /// Keep a tick's ranging results uncomposed until `composeDeferred` asks for them (the agent,
    /// so its loop composes a tick's burst in slices as the broker takes it, and an enter heard
    /// meanwhile is not held behind the whole burst). Off: every call composes all it produced.
    package var defersRanging = false
    private var pendingRestore: [RestoredState] = []
    /// Where `finish` stops the clock, fixed at its first step.
    private var drainHorizon: Timestamp?
    /// Configured devices; rebuilt on reload with `makeResolver`.
    private var devices: DeviceResolver
    private let makeResolver: IdentityResolverFactory?

    /// `identityResolver` makes `ah` over the configured IRKs (IdentityCrypto's
    /// `AESIdentityResolver.factory`); without it, devices by IRK never resolve.
    package init(configuration: Configuration, identityResolver: IdentityResolverFactory? = nil) {
        self.configuration = configuration
        makeResolver = identityResolver
        devices = DeviceResolver(devices: configuration.devices, makeResolver: identityResolver)
        composer = MessageComposer(configuration)
        engine = BeaconMonitor(settings: MonitorSettings(), start: Timestamp(microseconds: 0))
    }

    /// A pipeline whose monitoring starts at `start` rather than at the first packet.
    package init(configuration: Configuration, start: Timestamp) {
        self.init(configuration: configuration, start: start, identityResolver: nil)
    }

    package init(configuration: Configuration, start: Timestamp, identityResolver: IdentityResolverFactory?) {
        self.init(configuration: configuration, identityResolver: identityResolver)
        begin(at: start)
    }

    package var counters: PipelineCounters {
        var c = countersStorage
        c.monitor = started ? engine.counters : MonitorCounters()
        c.devices = devices.resolved
        c.unresolvedPrivateAddresses = devices.unresolved
        return c
    }

    /// Each configured region's state (none before monitoring began).
    package var regionStates: [(name: String, state: RegionState)] { started ? engine.regionStates : [] }

    /// Decodes one packet (H4 indicator first) and monitors every beacon it carries.
    package mutating func ingest(_ packet: CapturedPacket, into out: inout [OutboundMessage]) {
        packet.bytes.withUnsafeBytes {
            ingest(PacketView(timestamp: packet.timestamp, incoming: packet.incoming, bytes: $0), into: &out)
        }
    }

    /// The same for a packet read in place (a `PacketBatch`'s, as the agent hands them over).
    package mutating func ingest(_ packet: PacketView, into out: inout [OutboundMessage]) {
        countersStorage.packets += 1
        guard packet.incoming else { return }
        if !started { begin(at: packet.timestamp) }
        let time = packet.timestamp
        defer { composeEvents(into: &out) }
        do throws(DecodeError) {
            // A live packet comes framed by the source (its scan procedure reads every event): it
            // is not framed again. A replayed one is framed here.
            let packetClass = try HCIPacketDecoder.forEachReport(
                in: packet.bytes, indicator: packet.isFramedLEMetaEvent ? .framedLEMetaEvent : .present
            ) { header, ad in
                countersStorage.reports += 1
                guard let beacon = BeaconDecoder.firstIdentifiedBeacon(inAD: ad),
                    let sighting = BeaconSighting(
                        beacon: beacon, address: header.address, rssi: header.rssi, timestamp: time)
                else {
                    if let frame = BeaconDecoder.firstUnidentifiedEddystone(inAD: ad) {
                        countersStorage.unidentifiedFrames += 1
                        telemetry?.observe(frame, from: header.address, at: time, into: &events)
                    } else if !devices.isEmpty,
                        let device = devices.sighting(
                            address: header.address, addressType: header.addressType, rssi: header.rssi, at: time)
                    {
                        _ = engine.observe(device, into: &events)
                    }
                    return
                }
                countersStorage.beacons += 1
                if let slot = engine.track(sighting, into: &events), telemetry != nil {
                    telemetry!.observe(sighting, slot: slot, advertised: beacon.advertisedTxPower, into: &events)
                }
            }
            if packetClass.isAdvertisingReport {
                countersStorage.advertisingEvents += 1
            } else {
                countersStorage.otherPackets += 1
            }
        } catch {
            countersStorage.malformed += 1
            countersStorage.malformedReasons.count(error)
            lastError = error
        }
        engine.advance(to: time, into: &events)
        telemetry?.advance(to: time, into: &events)
    }

    /// Monitors one sighting that comes without a packet (the floor-plan simulator's); false when
    /// it matches no region and is ignored.
    @discardableResult
    package mutating func observe(_ sighting: BeaconSighting, into out: inout [OutboundMessage]) -> Bool {
        if !started { begin(at: sighting.timestamp) }
        let slot = engine.track(sighting, into: &events)
        if let slot, telemetry != nil {
            // A sighting without a frame: its calibrated power at 1 m is all it advertises.
            telemetry!.observe(
                sighting, slot: slot, advertised: sighting.measuredPower.map { ($0, 1) }, into: &events)
        }
        composeEvents(into: &out)
        return slot != nil
    }

    /// Lets time pass without packets: exits, initial states and ranging ticks that are due fire.
    package mutating func advance(to time: Timestamp, into out: inout [OutboundMessage]) {
        if !started { begin(at: time) }
        engine.advance(to: time, into: &events)
        telemetry?.advance(to: time, into: &events)
        composeEvents(into: &out)
    }

    /// The end of a finite source (a capture, a simulation): lets enough time pass for every pending
    /// exit and ranging update to fire at its own deadline, as if the gateway kept listening.
    package mutating func finish(into out: inout [OutboundMessage]) {
        while !finish(by: TimeSpan(microseconds: .max / 4), into: &out) {}
    }

    /// `finish` in steps of at most `step` of capture time, so a caller that must not outrun its
    /// consumer (a replay into a bounded outbox) can publish between steps. True when finished.
    package mutating func finish(by step: TimeSpan, into out: inout [OutboundMessage]) -> Bool {
        guard started else { return true }
        let now = engine.now
        if drainHorizon == nil {
            var longest = max(configuration.monitoring.exitTimeout, configuration.ranging.staleAfter)
            for r in configuration.regions { longest = max(longest, r.exitTimeout ?? .zero) }
            for b in configuration.beacons { longest = max(longest, b.exitTimeout ?? .zero) }
            // A telemetry window open at the end still publishes what it heard.
            if configuration.telemetry.enabled { longest = max(longest, configuration.telemetry.interval) }
            for d in configuration.devices { longest = max(longest, d.exitTimeout ?? .zero) }
            drainHorizon = now + longest + configuration.ranging.interval * 2
        }
        let horizon = drainHorizon!
        let next = horizon - now > step ? now + step : horizon
        advance(to: next, into: &out)
        // Draining publishes as it goes: nothing waits for a later slice.
        composeDeferred(upTo: .max, into: &out)
        return next >= horizon
    }

    /// What payloads add to the pipeline's times: the wall clock's step since a live start.
    package mutating func setPayloadClockOffset(_ offset: TimeSpan) { composer.wallOffset = offset }

    /// Applies a reloaded configuration; unchanged regions and beacons keep their state.
    package mutating func reconfigure(_ config: Configuration, at time: Timestamp, into out: inout [OutboundMessage]) {
        configuration = config
        if config.devices != devices.configured {
            devices = DeviceResolver(devices: config.devices, makeResolver: makeResolver)
        }
        guard started else {
            composer = MessageComposer(config, wallOffset: composer.wallOffset)
            return begin(at: time)
        }
        // What is due before the reload is published as configured before it.
        advance(to: time, into: &out)
        composeDeferred(upTo: .max, into: &out)
        engine.reconfigure(MonitorSettings(config), at: time, into: &events)
        if !config.telemetry.enabled {
            telemetry = nil
        } else if telemetry == nil {
            telemetry = Self.tracker(config)
        } else {
            telemetry!.reconfigure(config.telemetry, beacons: config.beacons)
        }
        // Withdrawals go to the topics the old names made; everything after, to the new ones.
        var old = composer
        composer = MessageComposer(config, wallOffset: composer.wallOffset)
        for e in events {
            switch e {
            case .didStopMonitoringRegion: old.compose(e, into: &out)
            case .didStopMonitoringBeacon(let id):
                // Its retained telemetry is withdrawn too: no window left open may publish it again.
                telemetry?.forget(id)
                old.compose(e, into: &out)
            default: composer.compose(e, into: &out)
            }
        }
        events.removeAll(keepingCapacity: true)
    }

    /// States read back from the broker at start; applied when monitoring begins (or at once).
    package mutating func restore(_ states: [RestoredState]) {
        if !started {
            pendingRestore += states
        } else {
            engine.restore(states)
        }
    }

    /// Clears those of this gateway's retained `state` and `attributes` topics, read back at start,
    /// whose region or beacon the configuration no longer monitors (removed while the gateway was
    /// down): they would otherwise stay on the broker forever.
    package func withdrawUnmonitored(_ topics: [String], into out: inout [OutboundMessage]) {
        let monitored = MonitoredSubjects(MonitorSettings(configuration))
        let base = configuration.mqtt.baseTopic
        let gateway = configuration.gateway.id
        for topic in topics {
            guard let (subject, _) = RetainedAttributes.subject(of: topic, baseTopic: base, gatewayID: gateway),
                !monitored.monitors(subject)
            else { continue }
            out.append(composer.clearRetained(topic))
        }
    }

    /// Every retained message (state, attributes and telemetry), to republish after a reconnect.
    package mutating func republishRetained(into out: inout [OutboundMessage]) {
        guard started else { return }
        engine.republishRetained(into: &events)
        telemetry?.republishRetained(into: &events)
        composeEvents(into: &out)
    }

    package var trackedBeacons: [TrackedBeacon] { started ? engine.trackedBeacons : [] }

    private mutating func begin(at time: Timestamp) {
        engine = BeaconMonitor(settings: MonitorSettings(configuration), start: time)
        telemetry = Self.tracker(configuration)
        started = true
        if !pendingRestore.isEmpty {
            engine.restore(pendingRestore)
            pendingRestore = []
        }
    }

    private static func tracker(_ c: Configuration) -> TelemetryTracker? {
        guard c.telemetry.enabled else { return nil }
        return TelemetryTracker(settings: c.telemetry, beacons: c.beacons, capacity: max(16, c.monitoring.maxTracked))
    }

    /// The latest TLM battery voltage (mV) of each of `identities` that has one (for `scan`).
    package func batteries(of identities: [BeaconIdentity]) -> [BeaconIdentity: UInt16] {
        guard started, let telemetry else { return [:] }
        var out: [BeaconIdentity: UInt16] = [:]
        for id in identities { if let mv = telemetry.telemetry(of: id)?.tlm?.battery { out[id] = mv } }
        return out
    }

    /// The telemetry tracker, once monitoring began with telemetry on.
    package var telemetryTracker: TelemetryTracker? { started ? telemetry : nil }

    /// Turns the monitor's events of one call into messages; most reports make none.
    private mutating func composeEvents(into out: inout [OutboundMessage]) {
        guard !events.isEmpty else { return }
        if defersRanging { return composeDeferring(into: &out) }
        // Borrowed in place: copying each event out of the array (it is as large as its largest
        // case) cost more than composing a state message.
        events.withUnsafeBufferPointer { buffer in
            for i in buffer.indices { composer.compose(buffer[i], into: &out) }
        }
        events.removeAll(keepingCapacity: true)
    }
}
