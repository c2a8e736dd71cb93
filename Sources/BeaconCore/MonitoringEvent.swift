import BeaconWire
import Vocabulary

/// What monitoring and ranging found, named after CoreLocation's delegate callbacks
/// (`didEnterRegion`, `didExitRegion`, `didDetermineState`, `didRange`) and, per beacon, after the
/// AltBeacon library's. `BeaconMonitor` emits them in the order they happen; the message contract
/// turns each into MQTT messages, so everything a payload prints is here.
package enum MonitoringEvent: Sendable, Equatable {
    /// A region's first matching beacon was seen (its `notify_entry` is on).
    case didEnterRegion(String, by: TransitionBeacon, at: Timestamp)
    /// A region's last matching beacon was silent for the exit timeout (its `notify_exit` is on).
    case didExitRegion(String, by: TransitionBeacon, at: Timestamp)
    /// A region's state and what its retained attributes record: after every change, at initial
    /// determination (`outside`, no enter or exit), at attribute refreshes, and on republish.
    case didDetermineState(String, RegionStatus, beaconsInRange: Int)
    /// Per-beacon monitoring: a beacon entered on its own.
    case beaconDidEnter(TransitionBeacon, at: Timestamp)
    /// Per-beacon monitoring: a beacon exited on its own, or was evicted from a full table.
    case beaconDidExit(TransitionBeacon, at: Timestamp, reason: ExitReason?)
    /// Per-beacon monitoring: a beacon's state and retained attributes, as for a region.
    case beaconDidDetermineState(BeaconIdentity, name: String?, RegionStatus)
    /// One beacon's ranging result is due for publishing: first in range, proximity changed,
    /// accuracy moved beyond the deadband, or the heartbeat.
    case didRangeBeacon(RangedBeacon, at: Timestamp)
    /// A region's ranged beacons at a tick, nearest first (unknown accuracy last); empty once when
    /// the region's last beacon drops out of ranging.
    case didRange(String, [RangedBeacon])
    /// A reload removed the region: what was published for it is withdrawn.
    case didStopMonitoringRegion(String)
    /// A reload left the beacon matching no region: what was published for it is withdrawn.
    case didStopMonitoringBeacon(BeaconIdentity)
    /// A beacon's telemetry is due (`TelemetryTracker`: its first TLM, a window's end, a battery
    /// crossing). Indirect: it is rare and large, and every event is as large as its largest case.
    indirect case didUpdateTelemetry(BeaconTelemetry)

    /// Why a beacon exited before its exit timeout.
    package enum ExitReason: String, Sendable, Equatable {
        /// The tracking table was full and this beacon was the least recently seen.
        case evicted
    }
}

/// A region's or a beacon's state with the times its retained attributes carry.
package struct RegionStatus: Sendable, Equatable {
    package var state: RegionState
    package var since: Timestamp?
    package var lastSeen: Timestamp?

    package init(state: RegionState, since: Timestamp?, lastSeen: Timestamp?) {
        self.state = state
        self.since = since
        self.lastSeen = lastSeen
    }
}

/// What an enter or exit says about the beacon that caused it.
package struct TransitionBeacon: Sendable, Equatable {
    /// nil only for a restored region that exits before any sighting.
    package var identity: BeaconIdentity?
    package var name: String?
    /// nil when the beacon was restored and not heard since start.
    package var address: BluetoothAddress?
    /// The last raw RSSI (127 = not available); the gateway offset is not applied.
    package var rssi: Int8
    package var lastSeen: Timestamp?

    package init(
        identity: BeaconIdentity?, name: String?, address: BluetoothAddress?, rssi: Int8, lastSeen: Timestamp?
    ) {
        self.identity = identity
        self.name = name
        self.address = address
        self.rssi = rssi
        self.lastSeen = lastSeen
    }
}
