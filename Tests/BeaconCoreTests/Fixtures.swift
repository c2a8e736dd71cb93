import BeaconCore
import BeaconWire
import MessageContract

/// Shared test vocabulary: a manual clock is just `Timestamp` values passed in.
enum Fixtures {
    /// 2024-05-01T12:00:00.000Z.
    static let t0 = Timestamp(microseconds: 1_714_564_800_000_000)
    static let uuidA = BeaconID128(uuidString: "e2c56db5-dffb-48d2-b060-d0f5a71096e0")!
    static let uuidB = BeaconID128(uuidString: "f7826da6-4fa2-4e98-8024-bc5b71e0893e")!
    static let address = BluetoothAddress("c0:ff:ee:00:00:01")!

    static func at(_ seconds: Double) -> Timestamp { t0 + TimeSpan(microseconds: Int64((seconds * 1e6).rounded())) }

    static func beacon(_ minor: UInt16, major: UInt16 = 1, uuid: BeaconID128 = uuidA) -> BeaconIdentity {
        .uuid(uuid, major: major, minor: minor)
    }

    static func sighting(
        _ id: BeaconIdentity, at seconds: Double, rssi: Int8 = -60, power: Int8? = -59,
        address: BluetoothAddress = address
    ) -> BeaconSighting {
        BeaconSighting(
            identity: id, kind: id.scheme == .eddystone ? .eddystoneUID : .iBeacon, address: address, rssi: rssi,
            measuredPower: power, timestamp: at(seconds))
    }

    /// One region "office" = uuidA (any major/minor), per-beacon off, ranging lists off, proximity
    /// messages effectively off: the pure region-monitoring view.
    static func regionConfig(exitTimeout: Int64 = 10) -> Configuration {
        var c = Configuration()
        c.gateway.id = "gw1"
        c.monitoring.perBeacon = false
        c.monitoring.exitTimeout = .seconds(exitTimeout)
        c.regions = [BeaconRegion(name: "office", uuid: uuidA)]
        c.ranging.publish.rangingList = false
        return c
    }
}

extension Array where Element == OutboundMessage {
    /// Messages of one kind.
    func of(_ kind: OutboundMessage.Kind) -> [OutboundMessage] { filter { $0.kind == kind } }
    /// Messages whose topic ends with `suffix`.
    func topic(endingWith suffix: String) -> [OutboundMessage] { filter { $0.topic.hasSuffix(suffix) } }
    /// The payload texts of event messages, in order.
    var eventPayloads: [String] { of(.event).map(\.payload.text) }
}

/// Drives a monitor through the message contract while collecting its output.
struct Harness {
    var pipeline: Pipeline
    var out: [OutboundMessage] = []

    init(_ c: Configuration, start: Timestamp = Fixtures.t0) { pipeline = Pipeline(configuration: c, start: start) }

    var monitor: BeaconMonitor { pipeline.monitor! }

    /// Observes and returns only the messages this call produced.
    @discardableResult
    mutating func see(_ s: BeaconSighting) -> [OutboundMessage] {
        var o: [OutboundMessage] = []
        pipeline.observe(s, into: &o)
        out += o
        return o
    }

    @discardableResult
    mutating func advance(_ seconds: Double) -> [OutboundMessage] {
        advance(to: Fixtures.at(seconds))
    }

    @discardableResult
    mutating func advance(to t: Timestamp) -> [OutboundMessage] {
        var o: [OutboundMessage] = []
        pipeline.advance(to: t, into: &o)
        out += o
        return o
    }
}

/// Drives a monitor on its own while collecting its events.
struct EventHarness {
    var monitor: BeaconMonitor
    var out: [MonitoringEvent] = []

    init(_ c: Configuration, start: Timestamp = Fixtures.t0) {
        monitor = BeaconMonitor(settings: MonitorSettings(c), start: start)
    }

    /// Observes and returns only the events this call produced.
    @discardableResult
    mutating func see(_ s: BeaconSighting) -> [MonitoringEvent] {
        var o: [MonitoringEvent] = []
        monitor.observe(s, into: &o)
        out += o
        return o
    }

    @discardableResult
    mutating func advance(_ seconds: Double) -> [MonitoringEvent] {
        var o: [MonitoringEvent] = []
        monitor.advance(to: Fixtures.at(seconds), into: &o)
        out += o
        return o
    }

    @discardableResult
    mutating func advance(to t: Timestamp) -> [MonitoringEvent] {
        var o: [MonitoringEvent] = []
        monitor.advance(to: t, into: &o)
        out += o
        return o
    }
}

extension Array where Element == MonitoringEvent {
    /// Region and per-beacon enters and exits, in order.
    var transitions: [MonitoringEvent] {
        filter {
            switch $0 {
            case .didEnterRegion, .didExitRegion, .beaconDidEnter, .beaconDidExit: return true
            default: return false
            }
        }
    }

    /// The states determined for `region`, in order.
    func states(of region: String) -> [RegionState] {
        compactMap {
            if case .didDetermineState(region, let s, _) = $0 { return s.state }
            return nil
        }
    }
}
