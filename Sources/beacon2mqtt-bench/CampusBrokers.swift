import Foundation

/// The campus's broker tree on loopback: a central mosquitto and one per floor, each floor's bridged
/// to the centre as etc/bridge/mosquitto-bridge.conf does it (`topic beacons/# out 1`, a persistent
/// bridge session, loop prevention, a notification topic). Every broker publishes its `$SYS` counters
/// each second, which the section reads for messages per second.
final class CampusBrokers {
    struct Broker {
        var name: String
        var port: Int
        var process: Process
    }

    private(set) var central: Broker
    /// Floor name → its broker.
    private(set) var floors: [(floor: String, broker: Broker)] = []

    init(floors names: [String], scratch: ScratchDirectory, tag: String) throws(BenchFailure) {
        guard let mosquitto = Subprocess.which("mosquitto") else {
            throw BenchFailure("mosquitto is not installed (scripts/install-deps.sh installs it)")
        }
        central = try Self.start(mosquitto, name: "central", bridge: nil, scratch: scratch, tag: tag)
        do {
            for (i, floor) in names.enumerated() {
                let bridge = """
                    connection campus-floor\(i + 1)
                    address 127.0.0.1:\(central.port)
                    topic beacons/# out 1
                    try_private true
                    bridge_protocol_version mqttv311
                    cleansession false
                    remote_clientid campus-floor\(i + 1)-bridge
                    keepalive_interval 30
                    restart_timeout 2 30
                    notifications true
                    notification_topic beacons/bridges/floor\(i + 1)/state

                    """
                floors.append(
                    (
                        floor,
                        try Self.start(mosquitto, name: "floor\(i + 1)", bridge: bridge, scratch: scratch, tag: tag)
                    ))
            }
        } catch {
            stop()
            throw error
        }
    }

    var all: [Broker] { [central] + floors.map(\.broker) }

    func stop() {
        for b in all.reversed() { Subprocess.stop(b.process) }
    }

    private static func start(
        _ mosquitto: String, name: String, bridge: String?, scratch: ScratchDirectory, tag: String
    )
        throws(BenchFailure) -> Broker
    {
        let port = try PrivateBroker.freePort()
        // No limit on queued messages: a bridge that falls behind queues (and shows in the latency)
        // instead of dropping, so loss counts only what a broker really lost.
        let config = try scratch.write(
            "listener \(port) 127.0.0.1\nallow_anonymous true\npersistence false\nmax_queued_messages 0\n"
                + "set_tcp_nodelay true\nsys_interval 1\nlog_type error\nlog_type warning\n" + (bridge ?? ""),
            to: "campus-\(tag)-\(name).conf")
        let log = scratch.path("campus-\(tag)-\(name).log")
        let process = try Subprocess.spawn(mosquitto, ["-c", config], stderr: log)
        let deadline = BenchClock.now() + 5_000_000_000
        while !PrivateBroker.accepts(port) {
            guard process.isRunning, BenchClock.now() < deadline else {
                Subprocess.stop(process)
                throw BenchFailure("mosquitto \(name) did not start on port \(port); see \(log)")
            }
            BenchClock.sleep(0.02)
        }
        return Broker(name: name, port: port, process: process)
    }
}
