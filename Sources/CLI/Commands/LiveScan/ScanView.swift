import BeaconCore
import BeaconWire
import Vocabulary

/// Turns the monitoring engine's tracked beacons into `scan` rows, once per refresh. The engine
/// supplies name, RSSI, filtered RSSI, accuracy and proximity; the view adds sightings per second,
/// from how each beacon's `seenCount` grew over the last `rateWindow` of refreshes.
package struct ScanView: Sendable {
    /// The window `seen/s` is averaged over.
    package var rateWindow: TimeSpan
    /// Beacons silent for longer are left out (the configuration's `ranging.stale_after`).
    package var staleAfter: TimeSpan
    private var history: [BeaconIdentity: [(time: Timestamp, seen: Int)]] = [:]

    package init(rateWindow: TimeSpan = .seconds(10), staleAfter: TimeSpan = .seconds(5)) {
        self.rateWindow = rateWindow
        self.staleAfter = staleAfter
    }

    /// The beacons in range at `now`, nearest first (unknown accuracy last, then by RSSI), with the
    /// battery voltages the telemetry tracker attached (`Pipeline.batteries`).
    package mutating func rows(
        _ tracked: [TrackedBeacon], batteries: [BeaconIdentity: UInt16] = [:], now: Timestamp
    ) -> [ScanTableRow] {
        var seenNow: Set<BeaconIdentity> = []
        var rows: [ScanTableRow] = []
        for beacon in tracked where now - beacon.lastSeen <= staleAfter {
            seenNow.insert(beacon.identity)
            var samples = history[beacon.identity] ?? []
            samples.append((now, beacon.seenCount))
            samples.removeAll { now - $0.time > rateWindow }
            history[beacon.identity] = samples
            rows.append(
                ScanTableRow(
                    identity: beacon.identity, name: beacon.name, rssi: beacon.rssi, filteredRSSI: beacon.filteredRSSI,
                    accuracy: beacon.accuracy >= 0 ? beacon.accuracy : nil, proximity: beacon.proximity.rawValue,
                    batteryMillivolts: batteries[beacon.identity],
                    seenPerSecond: Self.rate(samples, beacon: beacon, now: now), lastSeen: beacon.lastSeen,
                    kind: beacon.kind, address: beacon.address))
        }
        history = history.filter { seenNow.contains($0.key) }
        return rows.sorted { a, b in
            switch (a.accuracy, b.accuracy) {
            case (let x?, let y?) where x != y: return x < y
            case (.some, nil): return true
            case (nil, .some): return false
            default: return (a.rssi ?? -200, b.identity) > (b.rssi ?? -200, a.identity)
            }
        }
    }

    private static func rate(_ samples: [(time: Timestamp, seen: Int)], beacon: TrackedBeacon, now: Timestamp) -> Double
    {
        if let first = samples.first, let last = samples.last, last.time > first.time {
            return Double(last.seen - first.seen) / (last.time - first.time).seconds
        }
        // First refresh for this beacon: its whole history so far, over at least one second.
        return Double(beacon.seenCount) / max((now - beacon.firstSeen).seconds, 1)
    }
}
