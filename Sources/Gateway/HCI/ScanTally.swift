import BeaconWire

/// Raw per-beacon sightings for `scan` (last RSSI, rate, last seen), used until the monitoring
/// engine's tracked-beacon snapshot supplies the filtered RSSI, accuracy and proximity too.
public struct ScanTally: Sendable {
    private struct Entry: Sendable {
        var rssi: Int
        var lastSeen: Timestamp
        var recent: [Timestamp]
    }

    /// The window `seen/s` is averaged over.
    public var rateWindow: TimeSpan
    /// Beacons silent for longer drop out of the table.
    public var staleAfter: TimeSpan
    private var entries: [BeaconIdentity: Entry] = [:]

    public init(rateWindow: TimeSpan = .seconds(10), staleAfter: TimeSpan = .seconds(30)) {
        self.rateWindow = rateWindow
        self.staleAfter = staleAfter
    }

    public mutating func observe(_ identity: BeaconIdentity, rssi: Int, at time: Timestamp) {
        var entry = entries[identity] ?? Entry(rssi: rssi, lastSeen: time, recent: [])
        entry.rssi = rssi
        entry.lastSeen = max(entry.lastSeen, time)
        entry.recent.append(time)
        entry.recent.removeAll { entry.lastSeen - $0 > rateWindow }
        entries[identity] = entry
    }

    /// Beacons seen within `staleAfter` of `now`, strongest first; names from `names`.
    public mutating func rows(now: Timestamp, names: [BeaconIdentity: String] = [:]) -> [ScanTableRow] {
        entries = entries.filter { now - $0.value.lastSeen <= staleAfter }
        let window = max(rateWindow.seconds, 1e-6)
        return entries.map { identity, entry in
            let recent = entry.recent.filter { now - $0 <= rateWindow }.count
            return ScanTableRow(
                identity: identity, name: names[identity], rssi: entry.rssi,
                seenPerSecond: Double(recent) / window, lastSeen: entry.lastSeen)
        }.sorted { ($0.rssi, $1.identity) > ($1.rssi, $0.identity) }
    }
}
