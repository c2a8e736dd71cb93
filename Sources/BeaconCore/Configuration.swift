import BeaconWire

/// The whole agent configuration, as `etc/beacon2mqtt.yaml` describes it. Every default here is
/// the documented default; BeaconConfig fills it from YAML and validates it.
public struct Configuration: Sendable, Equatable {
    public var gateway = GatewaySettings()
    public var scanner = ScannerSettings()
    public var mqtt = MQTTSettings()
    public var monitoring = MonitoringSettings()
    public var ranging = RangingSettings()
    /// Empty means: track every beacon seen.
    public var regions: [BeaconRegion] = []
    public var beacons: [BeaconOverride] = []
    /// Floor/room location across gateways (`beacon2mqtt locate`, or inside `run` when enabled).
    public var locator = LocatorSettings()
    /// Home Assistant MQTT discovery and the `mqtt_room` feed (both off by default).
    public var homeAssistant = HomeAssistantSettings()
    public var logLevel: LogLevel = .info

    public init() {}
}

public enum LogLevel: String, Sendable, Equatable, CaseIterable, Comparable {
    case trace, debug, info, notice, warning, error, critical

    private var rank: Int { Self.allCases.firstIndex(of: self)! }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}

public struct GatewaySettings: Sendable, Equatable {
    /// Gateway id used in topics; validated as a topic level. Default: the host name (filled by the loader).
    public var id: String = "gateway"
    public var floor: String? = nil
    public var room: String? = nil
    /// dB added to every RSSI this gateway measures, to calibrate gateways that disagree.
    public var rssiOffset: Double = 0
    public init() {}
}

public struct ScannerSettings: Sendable, Equatable {
    public enum Mode: String, Sendable, Equatable, CaseIterable { case active, passive, listen }
    /// `hci0`, a controller address `aa:bb:cc:dd:ee:ff`, or `auto`.
    public var adapter: String = "auto"
    public var mode: Mode = .passive
    /// LE scan interval and window; window == interval means continuous scanning.
    public var interval: TimeSpan = .milliseconds(100)
    public var window: TimeSpan = .milliseconds(100)
    /// No report for this long while scanning triggers a re-enable, then an HCI reset.
    public var watchdog: TimeSpan = .seconds(30)
    public init() {}
}

public struct MQTTSettings: Sendable, Equatable {
    public enum ProtocolVersion: String, Sendable, Equatable, CaseIterable {
        case v311 = "3.1.1"
        case v5 = "5"
    }
    public var host: String = "localhost"
    public var port: Int = 1883
    public var baseTopic: String = "beacons"
    /// Defaults to the gateway id when nil.
    public var clientID: String? = nil
    public var username: String? = nil
    /// File holding the password; the password itself never appears in the YAML.
    public var passwordFile: String? = nil
    public var tls = TLSSettings()
    /// QoS for enter/exit events and retained state (proximity and ranging always use 0).
    public var qos: Int = 1
    public var keepalive: TimeSpan = .seconds(30)
    public var protocolVersion: ProtocolVersion = .v311
    public var cleanSession: Bool = false
    public var statsInterval: TimeSpan = .seconds(60)
    /// Most messages held while the broker is unreachable.
    public var outboxLimit: Int = 10_000
    /// Exit 69 when the broker cannot be reached at start, instead of retrying in the background.
    public var requireBrokerAtStart: Bool = false
    public var reconnectMin: TimeSpan = .seconds(1)
    public var reconnectMax: TimeSpan = .seconds(60)
    public init() {}
}

public struct TLSSettings: Sendable, Equatable {
    public var enabled: Bool = false
    public var caFile: String? = nil
    public var caPath: String? = nil
    public var certFile: String? = nil
    public var keyFile: String? = nil
    /// `tlsv1.2` or `tlsv1.3`; nil lets OpenSSL choose.
    public var version: String? = nil
    /// Skip the server host-name check. Logged as a warning.
    public var insecure: Bool = false
    public init() {}
}

public struct MonitoringSettings: Sendable, Equatable {
    /// A region (or beacon) exits when none of its beacons has been seen for this long.
    public var exitTimeout: TimeSpan = .seconds(10)
    /// Retained states younger than this are restored at start (see the MQTT session).
    public var restoreMaxAge: TimeSpan = .seconds(15 * 60)
    /// Most beacon identities tracked at once; the least recently seen is evicted beyond it.
    public var maxTracked: Int = 4096
    /// Publish per-beacon state/event topics (Android-style) in addition to region ones.
    public var perBeacon: Bool = true
    /// While inside, the retained `attributes` (with `last_seen`) are refreshed this often, so a
    /// restarted agent can tell a fresh state from a stale one.
    public var attributesRefresh: TimeSpan = .seconds(300)
    public init() {}
}

public struct RangingSettings: Sendable, Equatable {
    public var interval: TimeSpan = .seconds(1)
    /// Beacons not seen for this long drop out of the ranging list.
    public var staleAfter: TimeSpan = .seconds(5)
    public var filter = FilterSettings()
    public var distance = DistanceSettings()
    public var proximity = ProximityThresholds()
    public var publish = PublishSettings()
    public init() {}
}

public struct FilterSettings: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        case none, median, trimmedMean = "trimmed_mean", kalman
    }
    public var kind: Kind = .median
    /// Time window for median / trimmed mean.
    public var window: TimeSpan = .seconds(5)
    /// Fraction trimmed from each end by the trimmed mean.
    public var trim: Double = 0.1
    /// Kalman process noise (RSSI domain).
    public var processNoise: Double = 0.008
    /// Kalman measurement noise (RSSI domain).
    public var measurementNoise: Double = 4
    public init() {}
}

public struct DistanceSettings: Sendable, Equatable {
    public enum Model: String, Sendable, Equatable, CaseIterable {
        /// 0.89976·r^7.7095 + 0.111 (r = rssi / measured power), r^10 below 1.
        case curveFit = "curve_fit"
        /// 10^((measured power − rssi) / (10·n)).
        case logDistance = "log_distance"
    }
    public var model: Model = .curveFit
    /// Path-loss exponent n for log_distance.
    public var exponent: Double = 2.7
    /// Used when the frame carries no measured power and no override is configured.
    public var defaultMeasuredPower: Int = -59
    public init() {}
}

public struct ProximityThresholds: Sendable, Equatable {
    /// accuracy < immediate → immediate.
    public var immediate: Double = 0.5
    /// accuracy ≤ near → near; beyond → far.
    public var near: Double = 4.0
    public init() {}
}

public struct PublishSettings: Sendable, Equatable {
    /// Publish a beacon's proximity message when its proximity class changes.
    public var onProximityChange: Bool = true
    /// … or when its accuracy moved by more than this many metres since the last one (0 = off).
    public var accuracyDeadband: Double = 0.5
    /// … or at least this often while it is in range (0 = off).
    public var heartbeat: TimeSpan = .seconds(30)
    /// Publish the per-region ranging list every ranging interval while it is non-empty.
    public var rangingList: Bool = true
    public init() {}
}

/// A monitored region, like CLBeaconRegion: a UUID (or Eddystone namespace) with optional
/// major/minor (or instance) constraints.
public struct BeaconRegion: Sendable, Equatable {
    /// Used in topics; validated as a topic level.
    public var name: String
    /// uuid scheme: the proximity UUID; eddystone scheme: the namespace in the high 10 bytes.
    public var scheme: BeaconIdentity.Scheme
    public var uuid: BeaconID128
    public var major: UInt16?
    public var minor: UInt16?
    /// Eddystone only: the 48-bit instance, when constrained.
    public var instance: UInt64?
    public var notifyEntry: Bool = true
    public var notifyExit: Bool = true
    /// Overrides monitoring.exit_timeout for this region.
    public var exitTimeout: TimeSpan? = nil

    public init(
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
public struct BeaconOverride: Sendable, Equatable {
    public var identity: BeaconIdentity
    public var name: String?
    /// Calibrated RSSI at 1 m, overriding what the frame advertises.
    public var measuredPower: Int?
    public var exitTimeout: TimeSpan?

    public init(identity: BeaconIdentity, name: String? = nil, measuredPower: Int? = nil, exitTimeout: TimeSpan? = nil) {
        self.identity = identity
        self.name = name
        self.measuredPower = measuredPower
        self.exitTimeout = exitTimeout
    }
}
