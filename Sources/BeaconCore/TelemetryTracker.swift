import BeaconWire

/// Beside `BeaconMonitor`: attaches the frames that carry no identity (Eddystone-TLM and -URL) to
/// the beacon whose identity frames come from the same advertiser address, measures each beacon's
/// advertising interval, and says when its telemetry is due (`MonitoringEvent.didUpdateTelemetry`).
///
/// Association is by address only, as tlm-plain.md ("Interleaving Telemetry") prescribes: an address
/// maps to the identities last heard from it (at most `identitiesPerAddress`: a multi-slot beacon
/// sends iBeacon and Eddystone-UID from one address, and its TLM belongs to both). A TLM heard from an
/// address with no identity yet is held (the latest one) and attached when an identity frame
/// arrives. When the beacon rotates its address, the new address has no identity until the next
/// identity frame from it; the old address's association ages out of the bounded map.
///
/// Rate limit, per beacon (this is one gateway's tracker): at most one message per
/// `telemetry.interval`. The first goes at the first TLM, or `interval` after the beacon was first
/// seen; what arrives within a window is published when the window ends (if anything was heard);
/// a battery crossing `low_battery_mv` (down, or back up past the hysteresis) goes at once and
/// starts a new window. Pure: time comes with every call, memory is bounded by two fixed-capacity
/// maps and a deadline queue compacted against them.
package struct TelemetryTracker: Sendable {
    package static let identitiesPerAddress = 4
    /// The smallest advertising interval (Core Spec Vol 6, Part B, §4.4.2.2.1).
    static let minimumAdvertisingGap: Int64 = 20_000
    /// The largest legacy advInterval, 10.24 s (same section): a longer gap means the beacon was
    /// out of range, not that it advertises that slowly.
    static let maximumAdvertisingGap: Int64 = 10_240_000
    /// How often an identity frame from an unchanged address visits the address map (µs).
    static let addressRefresh: Int64 = 1_000_000

    struct AddressEntry: Sendable {
        var identities: [BeaconIdentity] = []
        /// A TLM (or URL) heard before any identity frame from this address.
        var pendingTLM: EddystoneTLM?
        var pendingTLMSeen: Timestamp?
        var pendingURL: String?
    }

    struct Record: Sendable {
        var address: BluetoothAddress
        var txPower: Int8?
        var txPowerAtMetres: Int = 0
        var lastSighting: Int64
        /// When the address map was last visited for this beacon (µs).
        var addressTouched: Int64 = .min
        /// Shortest gap (µs) since the last message; .max when none.
        var shortestGap: Int64 = .max
        var interval: TimeSpan?
        var tlm: EddystoneTLM?
        var tlmSeen: Timestamp?
        var url: String?
        var lowBattery: Bool?
        var windowStart: Timestamp
        var published = false
        var dirty = false
        var timerDue: Int64?
    }

    struct Deadline: Sendable {
        var due: Int64
        var identity: BeaconIdentity
    }

    package private(set) var settings: TelemetrySettings
    private var names: [BeaconIdentity: String] = [:]
    private var addresses: SecondChanceMap<BluetoothAddress, AddressEntry>
    private var records: SecondChanceMap<BeaconIdentity, Record>
    /// Due times are pushed as `now + interval` with `now` never going back, so they are in order.
    private var deadlines = FIFOQueue<Deadline>()
    private var now = Timestamp(microseconds: .min)

    /// `capacity` beacons (monitoring.max_tracked); twice as many addresses.
    package init(settings: TelemetrySettings, beacons: [BeaconOverride] = [], capacity: Int) {
        self.settings = settings
        addresses = SecondChanceMap(capacity: 2 * capacity)
        records = SecondChanceMap(capacity: capacity)
        for o in beacons { if let n = o.name { names[o.identity] = n } }
    }

    package var trackedCount: Int { records.count }
    package var trackedAddresses: Int { addresses.count }
    /// Window ends waiting (with superseded ones not yet compacted away).
    package var queuedDeadlines: Int { deadlines.count }

    /// The latest telemetry of `identity`, as a message would carry it now.
    package func telemetry(of identity: BeaconIdentity) -> BeaconTelemetry? {
        records[identity].map { snapshot(identity, $0, at: now) }
    }

    // MARK: Frames

    /// An identity frame (`advertised`: its TX power as the frame carries it) that the monitor took.
    package mutating func observe(
        _ s: BeaconSighting, advertised: (dBm: Int8, atMetres: Int)?, into out: inout [MonitoringEvent]
    ) {
        advance(to: s.timestamp, into: &out)
        let t = now
        let id = s.identity
        let interval = settings.interval
        var isNew = false
        let (windowOver, touchAddress) = records.upsert(
            id,
            {
                isNew = true
                return Record(address: s.address, lastSighting: t.microseconds, windowStart: t)
            }
        ) { r -> (Bool, Bool) in
            if !isNew {
                let gap = t.microseconds - r.lastSighting
                if gap >= Self.minimumAdvertisingGap && gap <= Self.maximumAdvertisingGap {
                    r.shortestGap = min(r.shortestGap, gap)
                }
            }
            r.lastSighting = t.microseconds
            // The address map is the per-report path's second table: visit it when the address
            // changed, and otherwise once a second (keeping the entry in use, and picking up a TLM
            // held after the entry was evicted).
            let touch = isNew || r.address != s.address || t.microseconds - r.addressTouched >= Self.addressRefresh
            if touch { r.addressTouched = t.microseconds }
            r.address = s.address
            if let advertised {
                r.txPower = advertised.dBm
                r.txPowerAtMetres = advertised.atMetres
            }
            r.dirty = true
            return (r.timerDue == nil && t >= r.windowStart + interval, touch)
        }
        var pending: (EddystoneTLM?, Timestamp?, String?) = (nil, nil, nil)
        if touchAddress {
            addresses.upsert(s.address, { AddressEntry() }) { e in
                if e.identities.first != id {
                    e.identities.removeAll { $0 == id }
                    e.identities.insert(id, at: 0)
                    if e.identities.count > Self.identitiesPerAddress { e.identities.removeLast() }
                }
                pending = (e.pendingTLM, e.pendingTLMSeen, e.pendingURL)
                e.pendingTLM = nil
                e.pendingTLMSeen = nil
                e.pendingURL = nil
            }
        }
        if isNew { arm(id, due: t + interval) }
        if let url = pending.2 { records.modify(id) { $0.url = url } }
        if let tlm = pending.0 { attach(tlm, seen: pending.1 ?? t, to: id, into: &out) }
        if windowOver, records[id]?.timerDue == nil { publish(id, at: t, into: &out) }
    }

    /// A frame without identity from `address`: an unencrypted TLM, or a URL (others are ignored).
    package mutating func observe(
        _ frame: EddystoneFrame, from address: BluetoothAddress, at time: Timestamp, into out: inout [MonitoringEvent]
    ) {
        advance(to: time, into: &out)
        let t = now
        let identities: [BeaconIdentity] = addresses.upsert(address, { AddressEntry() }) { e in
            if e.identities.isEmpty {
                switch frame {
                case .tlm(let tlm):
                    e.pendingTLM = tlm
                    e.pendingTLMSeen = t
                case .url(let url): e.pendingURL = url.url
                default: break
                }
            }
            return e.identities
        }
        for id in identities where records[id] != nil {
            switch frame {
            case .tlm(let tlm): attach(tlm, seen: t, to: id, into: &out)
            case .url(let url):
                records.modify(id) {
                    $0.url = url.url
                    $0.dirty = true
                }
            default: break
            }
        }
    }

    /// Fires every telemetry window that ends at or before `time`.
    package mutating func advance(to time: Timestamp, into out: inout [MonitoringEvent]) {
        if time > now { now = time }
        while let d = deadlines.first, d.due <= now.microseconds {
            _ = deadlines.pop()
            let due = records.modify(d.identity) { r -> Bool in
                guard r.timerDue == d.due else { return false }
                r.timerDue = nil
                return r.dirty
            }
            if due == true { publish(d.identity, at: Timestamp(microseconds: d.due), into: &out) }
        }
    }

    /// A reload: new settings and names; windows restart on the new interval from where they began.
    package mutating func reconfigure(_ settings: TelemetrySettings, beacons: [BeaconOverride]) {
        self.settings = settings
        names = [:]
        for o in beacons { if let n = o.name { names[o.identity] = n } }
        rebuildDeadlines()
    }

    /// Drops what is known of `identity` (a reload stopped monitoring it); its pending window ends
    /// without a message. Its address associations age out of the map.
    package mutating func forget(_ identity: BeaconIdentity) { records.remove(identity) }

    // MARK: Internals

    private mutating func attach(_ tlm: EddystoneTLM, seen: Timestamp, to id: BeaconIdentity, into out: inout [MonitoringEvent]) {
        let threshold = settings.lowBatteryMillivolts
        let urgent: Bool = records.modify(id) { r in
            let firstTLM = r.tlm == nil && !r.published
            r.tlm = tlm
            r.tlmSeen = seen
            r.dirty = true
            var crossed = false
            if threshold > 0, let mv = tlm.battery.map(Int.init) {
                let low: Bool
                switch r.lowBattery {
                case true?: low = mv < threshold + TelemetrySettings.hysteresisMillivolts
                default: low = mv < threshold
                }
                crossed = r.lowBattery != nil && r.lowBattery != low
                r.lowBattery = low
            }
            return firstTLM || crossed
        } ?? false
        if urgent { publish(id, at: now, into: &out) }
    }

    private mutating func publish(_ id: BeaconIdentity, at t: Timestamp, into out: inout [MonitoringEvent]) {
        guard settings.enabled,
            let r = records.modify(id, { r -> Record in
                if r.shortestGap != .max { r.interval = TimeSpan(microseconds: r.shortestGap) }
                r.shortestGap = .max
                r.windowStart = t
                r.published = true
                r.dirty = false
                return r
            })
        else { return }
        out.append(.didUpdateTelemetry(snapshot(id, r, at: t)))
        arm(id, due: t + settings.interval)
    }

    private func snapshot(_ id: BeaconIdentity, _ r: Record, at t: Timestamp) -> BeaconTelemetry {
        BeaconTelemetry(
            identity: id, name: names[id], address: r.address, txPower: r.txPower, txPowerAtMetres: r.txPowerAtMetres,
            interval: r.interval, tlm: r.tlm, tlmSeen: r.tlmSeen, url: r.url,
            lowBattery: settings.lowBatteryMillivolts > 0 ? r.lowBattery : nil, timestamp: t)
    }

    private mutating func arm(_ id: BeaconIdentity, due: Timestamp) {
        records.modify(id) { $0.timerDue = due.microseconds }
        deadlines.push(Deadline(due: due.microseconds, identity: id))
        // Evicted beacons and superseded windows leave entries behind; keep the queue near the map's size.
        if deadlines.count > 2 * records.count + 64 { rebuildDeadlines() }
    }

    /// One deadline per beacon, at the end of its current window, in due order.
    private mutating func rebuildDeadlines() {
        let interval = settings.interval
        var list: [Deadline] = []
        records.updateAll { id, r in
            let due = (r.windowStart + interval).microseconds
            r.timerDue = due
            list.append(Deadline(due: due, identity: id))
        }
        list.sort { $0.due < $1.due }
        deadlines.removeAll()
        deadlines.push(contentsOf: list)
    }
}
