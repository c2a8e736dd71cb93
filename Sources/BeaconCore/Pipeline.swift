import BeaconWire

/// The whole pure path: HCI packet bytes → advertising reports → beacon frames → monitoring and
/// ranging → MQTT messages. Every source (live HCI, capture replay, simulator) feeds this one type,
/// so they all produce the same messages for the same packets.
///
/// Monitoring starts at the first packet's (or `advance`'s) timestamp, so a replay's clock is the
/// capture's own. Undecodable bytes are counted (`counters.malformed`) and skipped, never fatal.
public struct Pipeline: Sendable {
    public private(set) var configuration: Configuration
    public private(set) var monitor: BeaconMonitor?
    var countersStorage = PipelineCounters()
    /// The last decoding error, for a debug log line.
    public private(set) var lastError: DecodeError?
    private var pendingRestore: [RestoredState] = []
    /// Where `finish` stops the clock, fixed at its first step.
    private var drainHorizon: Timestamp?

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    public var counters: PipelineCounters {
        var c = countersStorage
        c.monitor = monitor?.counters ?? MonitorCounters()
        return c
    }

    /// Decodes one packet (H4 indicator first) and monitors every beacon it carries.
    public mutating func ingest(_ packet: CapturedPacket, into out: inout [OutboundMessage]) {
        countersStorage.packets += 1
        guard packet.incoming else { return }
        if monitor == nil { begin(at: packet.timestamp) }
        let time = packet.timestamp
        let outcome: Result<PacketClass, DecodeError> = packet.bytes.withUnsafeBytes { raw in
            do throws(DecodeError) {
                return .success(
                    try HCIPacketDecoder.forEachReport(in: raw, indicator: .present) { header, ad in
                        countersStorage.reports += 1
                        guard let beacon = BeaconDecoder.firstIdentifiedBeacon(inAD: ad),
                            let sighting = BeaconSighting(
                                beacon: beacon, address: header.address, rssi: header.rssi, timestamp: time)
                        else { return }
                        countersStorage.beacons += 1
                        monitor!.observe(sighting, into: &out)
                    })
            } catch {
                return .failure(error)
            }
        }
        switch outcome {
        case .success(let packetClass):
            if packetClass.isAdvertisingReport {
                countersStorage.advertisingEvents += 1
            } else {
                countersStorage.otherPackets += 1
            }
        case .failure(let error):
            countersStorage.malformed += 1
            lastError = error
        }
        monitor!.advance(to: time, into: &out)
    }

    /// Lets time pass without packets: exits, initial states and ranging ticks that are due fire.
    public mutating func advance(to time: Timestamp, into out: inout [OutboundMessage]) {
        if monitor == nil { begin(at: time) }
        monitor!.advance(to: time, into: &out)
    }

    /// The end of a finite source (a capture, a simulation): lets enough time pass for every pending
    /// exit and ranging update to fire at its own deadline, as if the gateway kept listening.
    public mutating func finish(into out: inout [OutboundMessage]) {
        while !finish(by: TimeSpan(microseconds: .max / 4), into: &out) {}
    }

    /// `finish` in steps of at most `step` of capture time, so a caller that must not outrun its
    /// consumer (a replay into a bounded outbox) can publish between steps. True when finished.
    public mutating func finish(by step: TimeSpan, into out: inout [OutboundMessage]) -> Bool {
        guard let now = monitor?.now else { return true }
        if drainHorizon == nil {
            var longest = max(configuration.monitoring.exitTimeout, configuration.ranging.staleAfter)
            for r in configuration.regions { longest = max(longest, r.exitTimeout ?? .zero) }
            for b in configuration.beacons { longest = max(longest, b.exitTimeout ?? .zero) }
            drainHorizon = now + longest + configuration.ranging.interval * 2
        }
        let horizon = drainHorizon!
        let next = horizon - now > step ? now + step : horizon
        monitor!.advance(to: next, into: &out)
        return next >= horizon
    }

    /// Applies a reloaded configuration; unchanged regions and beacons keep their state.
    public mutating func reconfigure(_ config: Configuration, at time: Timestamp, into out: inout [OutboundMessage]) {
        configuration = config
        if monitor == nil {
            begin(at: time)
        } else {
            monitor!.reconfigure(config, at: time, into: &out)
        }
    }

    /// States read back from the broker at start; applied when monitoring begins (or at once).
    public mutating func restore(_ states: [RestoredState]) {
        if monitor == nil {
            pendingRestore += states
        } else {
            monitor!.restore(states)
        }
    }

    /// Every retained message (state and attributes), to republish after a reconnect.
    public mutating func republishRetained(into out: inout [OutboundMessage]) {
        monitor?.republishRetained(into: &out)
    }

    public var trackedBeacons: [TrackedBeacon] { monitor?.trackedBeacons ?? [] }

    private mutating func begin(at time: Timestamp) {
        monitor = BeaconMonitor(configuration: configuration, start: time)
        if !pendingRestore.isEmpty {
            monitor!.restore(pendingRestore)
            pendingRestore = []
        }
    }
}
