import BeaconWire
import Vocabulary

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
/// Per beacon the tracker keeps a row indexed by the monitor's slot (`MonitorSlot`), so a report
/// costs an array index here, not a second hash lookup: a beacon the monitor evicts keeps its row
/// until the slot is reused, and a beacon tracked again starts afresh.
///
/// Rate limit, per beacon (this is one gateway's tracker): at most one message per
/// `telemetry.interval`. The first goes at the first TLM, or `interval` after the beacon was first
/// seen; what arrives within a window is published when the window ends (if anything was heard);
/// a battery crossing `low_battery_mv` (down, or back up past the hysteresis) goes at once and
/// starts a new window. Pure: time comes with every call, memory is bounded by the monitor's table,
/// a fixed-capacity address map and a deadline queue compacted against them.
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
        /// The beacons last heard from this address, newest first.
        var beacons: [MonitorSlot] = []
        /// A TLM (or URL) heard before any identity frame from this address.
        var pendingTLM: EddystoneTLM?
        var pendingTLMSeen: Timestamp?
        var pendingURL: String?
    }

    /// One beacon's row. The parts a report touches come first, so they share a cache line (Swift
    /// keeps a struct's declared order, nested parts inline); a row is cold in the cache once there
    /// are thousands of beacons.
    struct Record: Sendable {
        /// What the identity frames tell, updated by every report.
        struct Advertising: Sendable {
            var txPower: Int8?
            var txPowerAtMetres: Int8 = 0
            var address: BluetoothAddress
            var lastSighting: Int64
            /// When the address map was last visited for this beacon (µs).
            var addressTouched: Int64 = .min
            /// Shortest gap (µs) since the last message; .max when none.
            var shortestGap: Int64 = .max
        }

        /// The rate limit's window: when it began, when its timer is due, whether it has news.
        struct Window: Sendable {
            var start: Timestamp
            var timerDue: Int64?
            /// Something was heard since the last message.
            var dirty = false
            var published = false
        }

        /// The monitor slot's generation this row belongs to.
        var generation: UInt32
        /// False for a row no beacon holds (`vacant`).
        var live = true
        var advertising: Advertising
        var window: Window
        // Read when a message is due.
        var identity: BeaconIdentity
        var interval: TimeSpan?
        var tlm: EddystoneTLM?
        var tlmSeen: Timestamp?
        var url: String?
        var lowBattery: Bool?

        init(
            generation: UInt32, live: Bool = true, address: BluetoothAddress, lastSighting: Int64,
            windowStart: Timestamp, identity: BeaconIdentity
        ) {
            self.generation = generation
            self.live = live
            advertising = Advertising(address: address, lastSighting: lastSighting)
            window = Window(start: windowStart)
            self.identity = identity
        }

        /// A row no beacon holds. Rows are not optionals: reading an optional row's tag was an
        /// outlined call, two a report (callgrind: about 40 instructions with the ownership test).
        static let vacant = Record(
            generation: 0, live: false, address: BluetoothAddress(rawValue: 0), lastSighting: 0,
            windowStart: Timestamp(microseconds: 0), identity: .uuid(BeaconID128(high: 0, low: 0), major: 0, minor: 0))
    }

    struct Deadline: Sendable {
        var due: Int64
        var slot: MonitorSlot
    }

    package private(set) var settings: TelemetrySettings
    private var names: [BeaconIdentity: String] = [:]
    private var addresses: SecondChanceMap<BluetoothAddress, AddressEntry>
    /// Indexed by `MonitorSlot.index`; a row is the slot's only while it is live and the
    /// generations agree.
    private var records: ContiguousArray<Record> = []
    /// The row of each beacon that has one, for what comes by identity (`telemetry(of:)`, `forget`);
    /// written only when a row is given to a new beacon.
    private var rows: [BeaconIdentity: Int32] = [:]
    /// Due times are pushed as `now + interval` with `now` never going back, so they are in order.
    private var deadlines = FIFOQueue<Deadline>()
    private var now = Timestamp(microseconds: .min)

    /// `capacity` beacons (monitoring.max_tracked): twice as many addresses are kept.
    package init(settings: TelemetrySettings, beacons: [BeaconOverride] = [], capacity: Int) {
        self.settings = settings
        addresses = SecondChanceMap(capacity: 2 * capacity)
        for o in beacons { if let n = o.name { names[o.identity] = n } }
    }

    package var trackedCount: Int { rows.count }
    package var trackedAddresses: Int { addresses.count }
    /// Window ends waiting (with superseded ones not yet compacted away).
    package var queuedDeadlines: Int { deadlines.count }

    /// The latest telemetry of `identity`, as a message would carry it now.
    package func telemetry(of identity: BeaconIdentity) -> BeaconTelemetry? {
        rows[identity].map { records[Int($0)] }.flatMap { $0.live ? snapshot($0, at: now) : nil }
    }

    // MARK: Frames

    /// An identity frame that the monitor took into `slot` (`advertised`: its TX power as the frame
    /// carries it).
    package mutating func observe(
        _ s: BeaconSighting, slot: MonitorSlot, advertised: (dBm: Int8, atMetres: Int)?,
        into out: inout [MonitoringEvent]
    ) {
        advance(to: s.timestamp, into: &out)
        let t = now
        let interval = settings.interval
        let isNew = !owns(slot)
        if isNew { adopt(slot, s, at: t) }
        // The interval is measured between the frames' own times, not `now`: a timer that ran the
        // clock ahead of a delayed packet (a replay on a loaded machine) would shorten the gap.
        let seen = s.timestamp.microseconds
        // The row is the slot's now (adopted above if it was not): updated in place, unchecked.
        let (windowOver, touchAddress) = { (r: inout Record) -> (Bool, Bool) in
            if !isNew {
                let gap = seen - r.advertising.lastSighting
                if gap >= Self.minimumAdvertisingGap && gap <= Self.maximumAdvertisingGap {
                    r.advertising.shortestGap = min(r.advertising.shortestGap, gap)
                }
            }
            r.advertising.lastSighting = max(r.advertising.lastSighting, seen)
            // The address map is the per-report path's second table: visit it when the address
            // changed, and otherwise once a second (keeping the entry in use, and picking up a TLM
            // held after the entry was evicted).
            let touch =
                isNew || r.advertising.address != s.address
                || t.microseconds - r.advertising.addressTouched >= Self.addressRefresh
            if touch { r.advertising.addressTouched = t.microseconds }
            r.advertising.address = s.address
            if let advertised {
                r.advertising.txPower = advertised.dBm
                r.advertising.txPowerAtMetres = Int8(clamping: advertised.atMetres)
            }
            r.window.dirty = true
            return (r.window.timerDue == nil && t >= r.window.start + interval, touch)
        }(&records[Int(slot.index)])
        if touchAddress { visitAddress(s.address, of: slot, isNew: isNew, at: t, into: &out) }
        if windowOver, modify(slot, { $0.window.timerDue == nil }) == true { publish(slot, at: t, into: &out) }
    }

    /// The address map's side of an identity frame (when the address changed, a new beacon, or
    /// once a second): puts `slot` first among the address's beacons and takes what the address
    /// held for it (a TLM or URL heard before the identity). Kept out of `observe`, whose every
    /// call otherwise paid for destroying the empty pending values (callgrind: 120 instructions).
    private mutating func visitAddress(
        _ address: BluetoothAddress, of slot: MonitorSlot, isNew: Bool, at t: Timestamp,
        into out: inout [MonitoringEvent]
    ) {
        var pending: (EddystoneTLM?, Timestamp?, String?) = (nil, nil, nil)
        addresses.upsert(address, { AddressEntry() }) { e in
            if e.beacons.first != slot {
                e.beacons.removeAll { $0 == slot }
                e.beacons.insert(slot, at: 0)
                if e.beacons.count > Self.identitiesPerAddress { e.beacons.removeLast() }
            }
            // Nearly always nothing is held: then the entry is left as it is.
            guard e.pendingTLM != nil || e.pendingTLMSeen != nil || e.pendingURL != nil else { return }
            pending = (e.pendingTLM, e.pendingTLMSeen, e.pendingURL)
            e.pendingTLM = nil
            e.pendingTLMSeen = nil
            e.pendingURL = nil
        }
        if isNew { arm(slot, due: t + settings.interval) }
        if let url = pending.2 { modify(slot) { $0.url = url } }
        if let tlm = pending.0 { attach(tlm, seen: pending.1 ?? t, to: slot, into: &out) }
    }

    /// A frame without identity from `address`: an unencrypted TLM, or a URL (others are ignored).
    package mutating func observe(
        _ frame: EddystoneFrame, from address: BluetoothAddress, at time: Timestamp, into out: inout [MonitoringEvent]
    ) {
        advance(to: time, into: &out)
        let t = now
        let beacons: [MonitorSlot] = addresses.upsert(address, { AddressEntry() }) { e in
            if e.beacons.isEmpty {
                switch frame {
                case .tlm(let tlm):
                    e.pendingTLM = tlm
                    e.pendingTLMSeen = t
                case .url(let url): e.pendingURL = url.url
                default: break
                }
            }
            return e.beacons
        }
        for slot in beacons {
            switch frame {
            case .tlm(let tlm): attach(tlm, seen: t, to: slot, into: &out)
            case .url(let url):
                modify(slot) {
                    $0.url = url.url
                    $0.window.dirty = true
                }
            default: break
            }
        }
    }

    /// Fires every telemetry window that ends at or before `time`.
    /// Called twice a report, nearly always with nothing due: the loop is kept out of that path's
    /// frame (as `BeaconMonitor.advance` does).
    package mutating func advance(to time: Timestamp, into out: inout [MonitoringEvent]) {
        if time > now { now = time }
        if let d = deadlines.first, d.due <= now.microseconds { fireDue(into: &out) }
    }

    @inline(never)
    private mutating func fireDue(into out: inout [MonitoringEvent]) {
        while let d = deadlines.first, d.due <= now.microseconds {
            _ = deadlines.pop()
            let due = modify(d.slot) { r -> Bool in
                guard r.window.timerDue == d.due else { return false }
                r.window.timerDue = nil
                return r.window.dirty
            }
            if due == true { publish(d.slot, at: Timestamp(microseconds: d.due), into: &out) }
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
    package mutating func forget(_ identity: BeaconIdentity) {
        if let row = rows.removeValue(forKey: identity) { records[Int(row)] = .vacant }
    }

    /// The latest telemetry of every beacon that has published any, to republish after the broker
    /// lost its retained messages; the windows and the rate limit go on as they were.
    package func republishRetained(into out: inout [MonitoringEvent]) {
        for r in records where r.live && r.window.published { out.append(.didUpdateTelemetry(snapshot(r, at: now))) }
    }

    // MARK: Internals

    private func owns(_ slot: MonitorSlot) -> Bool {
        let i = Int(slot.index)
        return i < records.count && records[i].live && records[i].generation == slot.generation
    }

    /// Gives `slot`'s row to the beacon the monitor put there: whatever held the row before (a
    /// beacon the monitor dropped) and this beacon's row from an earlier stay in the table go.
    private mutating func adopt(_ slot: MonitorSlot, _ s: BeaconSighting, at t: Timestamp) {
        let i = Int(slot.index)
        if i >= records.count { records.append(contentsOf: repeatElement(.vacant, count: i + 1 - records.count)) }
        if records[i].live, rows[records[i].identity] == slot.index { rows[records[i].identity] = nil }
        if let earlier = rows.updateValue(slot.index, forKey: s.identity), earlier != slot.index {
            records[Int(earlier)] = .vacant
        }
        records[i] = Record(
            generation: slot.generation, address: s.address, lastSighting: s.timestamp.microseconds, windowStart: t,
            identity: s.identity)
    }

    /// Runs `body` on `slot`'s row in place; nil when the row is not the slot's.
    @discardableResult
    private mutating func modify<R>(_ slot: MonitorSlot, _ body: (inout Record) -> R) -> R? {
        guard owns(slot) else { return nil }
        return body(&records[Int(slot.index)])
    }

    private mutating func attach(
        _ tlm: EddystoneTLM, seen: Timestamp, to slot: MonitorSlot, into out: inout [MonitoringEvent]
    ) {
        let threshold = settings.lowBatteryMillivolts
        let urgent: Bool =
            modify(slot) { r in
                let firstTLM = r.tlm == nil && !r.window.published
                r.tlm = tlm
                r.tlmSeen = seen
                r.window.dirty = true
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
        if urgent { publish(slot, at: now, into: &out) }
    }

    private mutating func publish(_ slot: MonitorSlot, at t: Timestamp, into out: inout [MonitoringEvent]) {
        guard settings.enabled,
            let r = modify(
                slot,
                { r -> Record in
                    if r.advertising.shortestGap != .max {
                        r.interval = TimeSpan(microseconds: r.advertising.shortestGap)
                    }
                    r.advertising.shortestGap = .max
                    r.window.start = t
                    r.window.published = true
                    r.window.dirty = false
                    return r
                })
        else { return }
        out.append(.didUpdateTelemetry(snapshot(r, at: t)))
        arm(slot, due: t + settings.interval)
    }

    private func snapshot(_ r: Record, at t: Timestamp) -> BeaconTelemetry {
        BeaconTelemetry(
            identity: r.identity, name: names[r.identity], address: r.advertising.address,
            txPower: r.advertising.txPower, txPowerAtMetres: Int(r.advertising.txPowerAtMetres), interval: r.interval,
            tlm: r.tlm, tlmSeen: r.tlmSeen, url: r.url,
            lowBattery: settings.lowBatteryMillivolts > 0 ? r.lowBattery : nil, timestamp: t)
    }

    private mutating func arm(_ slot: MonitorSlot, due: Timestamp) {
        modify(slot) { $0.window.timerDue = due.microseconds }
        deadlines.push(Deadline(due: due.microseconds, slot: slot))
        // Dropped beacons and superseded windows leave entries behind; keep the queue near the rows' count.
        if deadlines.count > 2 * rows.count + 64 { rebuildDeadlines() }
    }

    /// One deadline per beacon, at the end of its current window, in due order.
    private mutating func rebuildDeadlines() {
        let interval = settings.interval
        var list: [Deadline] = []
        for i in records.indices where records[i].live {
            let due = (records[i].window.start + interval).microseconds
            records[i].window.timerDue = due
            list.append(Deadline(due: due, slot: MonitorSlot(index: Int32(i), generation: records[i].generation)))
        }
        list.sort { $0.due < $1.due }
        deadlines.removeAll()
        deadlines.push(contentsOf: list)
    }
}
