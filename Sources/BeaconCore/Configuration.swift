import BeaconWire
import Vocabulary

/// The whole agent configuration, as `etc/beacon2mqtt.yaml` describes it. Every default here is
/// the documented default; BeaconConfig fills it from YAML and validates it.
package struct Configuration: Sendable, Equatable {
    package var gateway = GatewaySettings()
    package var scanner = ScannerSettings()
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
    /// What the gateway advertises while it scans (`advertise:`); nil: nothing (the default).
    package var advertise: AdvertiseSettings?
    /// Other projects' formats the gateway also publishes in (`compat:`; none by default).
    package var compat: [CompatFormat] = []
    package var logLevel: LogLevel = .info

    package init() {}
}

package struct GatewaySettings: Sendable, Equatable {
    /// Gateway id used in topics; validated as a topic level. Default: the host name (filled by the loader).
    package var id: String = "gateway"
    package var floor: String? = nil
    package var room: String? = nil
    /// dB added to every RSSI this gateway measures, to calibrate gateways that disagree.
    package var rssiOffset: Double = 0
    /// Where the gateway stands (metres, the site's own axes), so gateways that hear each other
    /// calibrate the site (docs/locator.md, "Calibrating a site"). nil: unknown.
    package var position: SitePosition? = nil
    package init() {}
}

package struct RemoteConfigSettings: Sendable, Equatable {
    /// Off by default: a gateway takes configuration from the broker only when its owner says so.
    package var enabled = false
    package init() {}
}

package struct ScannerSettings: Sendable, Equatable {
    package enum Mode: String, Sendable, Equatable, CaseIterable { case active, passive, listen }
    /// `hci0`, a controller address `aa:bb:cc:dd:ee:ff`, or `auto`.
    package var adapter: String = "auto"
    package var mode: Mode = .passive
    /// LE scan interval and window; window == interval means continuous scanning.
    package var interval: TimeSpan = .milliseconds(100)
    package var window: TimeSpan = .milliseconds(100)
    /// No report for this long while scanning triggers a re-enable, then an HCI reset.
    package var watchdog: TimeSpan = .seconds(30)
    /// Least time between two reads of the adapter's socket once a read emptied it; zero reads each
    /// report as it arrives; nil (`adaptive`, the default) holds while busy and reads at once while quiet.
    package var readInterval: TimeSpan?
    package init() {}
}

package struct MQTTSettings: Sendable, Equatable {
    package enum ProtocolVersion: String, Sendable, Equatable, CaseIterable {
        case v311 = "3.1.1"
        case v5 = "5"
    }
    /// A failover broker: its host, and its port (nil: `port`).
    package struct Failover: Sendable, Equatable {
        package var host: String
        package var port: Int?
        package init(host: String, port: Int? = nil) {
            self.host = host
            self.port = port
        }
    }

    package var host: String = "localhost"
    package var port: Int = 1883
    /// Brokers tried, in order, after `host` (`mqtt.failover`).
    package var failover: [Failover] = []
    package var baseTopic: String = "beacons"
    /// Defaults to the gateway id when nil.
    package var clientID: String? = nil
    package var username: String? = nil
    /// File holding the password; the password itself never appears in the YAML.
    package var passwordFile: String? = nil
    package var tls = TLSSettings()
    /// QoS for enter/exit events and retained state (proximity and ranging always use 0).
    package var qos: Int = 1
    package var keepalive: TimeSpan = .seconds(30)
    package var protocolVersion: ProtocolVersion = .v311
    package var cleanSession: Bool = false
    package var statsInterval: TimeSpan = .seconds(60)
    /// Most messages held while the broker is unreachable.
    package var outboxLimit: Int = 10_000
    /// Exit 69 when the broker cannot be reached at start, instead of retrying in the background.
    package var requireBrokerAtStart: Bool = false
    package var reconnectMin: TimeSpan = .seconds(1)
    package var reconnectMax: TimeSpan = .seconds(60)
    package init() {}
}

package struct TLSSettings: Sendable, Equatable {
    package var enabled: Bool = false
    package var caFile: String? = nil
    package var caPath: String? = nil
    package var certFile: String? = nil
    package var keyFile: String? = nil
    /// `tlsv1.2` or `tlsv1.3`; nil lets OpenSSL choose.
    package var version: String? = nil
    /// Skip the server host-name check. Logged as a warning.
    package var insecure: Bool = false
    package init() {}
}

package struct MonitoringSettings: Sendable, Equatable {
    /// A region (or beacon) exits when none of its beacons has been seen for this long.
    package var exitTimeout: TimeSpan = .seconds(10)
    /// Retained states younger than this are restored at start (see the MQTT session).
    package var restoreMaxAge: TimeSpan = .seconds(15 * 60)
    /// Most beacon identities tracked at once; the least recently seen is evicted beyond it.
    package var maxTracked: Int = 4096
    /// Publish per-beacon state/event topics (Android-style) in addition to region ones.
    package var perBeacon: Bool = true
    /// While inside, the retained `attributes` (with `last_seen`) are refreshed this often, so a
    /// restarted agent can tell a fresh state from a stale one.
    package var attributesRefresh: TimeSpan = .seconds(300)
    package init() {}
}

package struct RangingSettings: Sendable, Equatable {
    package var interval: TimeSpan = .seconds(1)
    /// Beacons not seen for this long drop out of the ranging list.
    package var staleAfter: TimeSpan = .seconds(5)
    package var filter = FilterSettings()
    package var distance = DistanceSettings()
    package var proximity = ProximityThresholds()
    package var publish = PublishSettings()
    package init() {}
}

package struct FilterSettings: Sendable, Equatable {
    package enum Kind: String, Sendable, Equatable, CaseIterable {
        case none, median
        case trimmedMean = "trimmed_mean"
        case kalman
    }
    package var kind: Kind = .median
    /// Time window for median / trimmed mean.
    package var window: TimeSpan = .seconds(5)
    /// Fraction trimmed from each end by the trimmed mean.
    package var trim: Double = 0.1
    /// Kalman process noise (RSSI domain).
    package var processNoise: Double = 0.008
    /// Kalman measurement noise (RSSI domain).
    package var measurementNoise: Double = 4
    package init() {}
}

package struct DistanceSettings: Sendable, Equatable {
    package enum Model: String, Sendable, Equatable, CaseIterable {
        /// 0.89976·r^7.7095 + 0.111 (r = rssi / measured power), r^10 below 1.
        case curveFit = "curve_fit"
        /// 10^((measured power − rssi) / (10·n)).
        case logDistance = "log_distance"
    }
    package var model: Model = .curveFit
    /// Path-loss exponent n for log_distance.
    package var exponent: Double = 2.7
    /// Used when the frame carries no measured power and no override is configured.
    package var defaultMeasuredPower: Int = -59
    package init() {}
}

package struct ProximityThresholds: Sendable, Equatable {
    /// accuracy < immediate → immediate.
    package var immediate: Double = 0.5
    /// accuracy ≤ near → near; beyond → far.
    package var near: Double = 4.0
    package init() {}
}

package struct PublishSettings: Sendable, Equatable {
    /// Publish a beacon's proximity message when its proximity class changes.
    package var onProximityChange: Bool = true
    /// … or when its accuracy moved by more than this many metres since the last one (0 = off).
    package var accuracyDeadband: Double = 0.5
    /// … or when its filtered RSSI moved by at least this many dB since the last one (0 = off): a
    /// room engine weighs signals in dB, and at a few metres half a metre of accuracy is 10 dB.
    package var rssiDeadband: Double = 3
    /// … or at least this often while it is in range (0 = off).
    package var heartbeat: TimeSpan = .seconds(30)
    /// Publish the per-region ranging list every ranging interval while it is non-empty.
    package var rangingList: Bool = true
    package init() {}
}

/// A monitored region, like CLBeaconRegion: a UUID (or Eddystone namespace) with optional
/// major/minor (or instance) constraints.
package struct BeaconRegion: Sendable, Equatable {
    /// Used in topics; validated as a topic level.
    package var name: String
    /// uuid scheme: the proximity UUID; eddystone scheme: the namespace in the high 10 bytes.
    package var scheme: BeaconIdentity.Scheme
    package var uuid: BeaconID128
    package var major: UInt16?
    package var minor: UInt16?
    /// Eddystone only: the 48-bit instance, when constrained.
    package var instance: UInt64?
    package var notifyEntry: Bool = true
    package var notifyExit: Bool = true
    /// Overrides monitoring.exit_timeout for this region.
    package var exitTimeout: TimeSpan? = nil

    package init(
        name: String, scheme: BeaconIdentity.Scheme = .uuid, uuid: BeaconID128, major: UInt16? = nil,
        minor: UInt16? = nil, instance: UInt64? = nil, notifyEntry: Bool = true, notifyExit: Bool = true,
        exitTimeout: TimeSpan? = nil
    ) {
        self.name = name
        self.scheme = scheme
        self.uuid = uuid
        self.major = major
        self.minor = minor
        self.instance = instance
        self.notifyEntry = notifyEntry
        self.notifyExit = notifyExit
        self.exitTimeout = exitTimeout
    }
}

/// Per-beacon settings: a friendly name and calibration.
package struct BeaconOverride: Sendable, Equatable {
    package var identity: BeaconIdentity
    package var name: String?
    /// Calibrated RSSI at 1 m, overriding what the frame advertises.
    package var measuredPower: Int?
    package var exitTimeout: TimeSpan?

    package init(identity: BeaconIdentity, name: String? = nil, measuredPower: Int? = nil, exitTimeout: TimeSpan? = nil)
    {
        self.identity = identity
        self.name = name
        self.measuredPower = measuredPower
        self.exitTimeout = exitTimeout
    }
}
