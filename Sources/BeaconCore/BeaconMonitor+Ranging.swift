import BeaconWire
import Vocabulary

extension BeaconMonitor {
    /// The measured power distance estimation uses: the beacon override's, else the frame's, else
    /// distance.default_measured_power. A frame value ≥ 0 dBm is treated as absent (room-assistant,
    /// Theengs: "−59 when the beacon's field is 0").
    func measuredPower(of slot: BeaconSlot) -> Int {
        measuredPower(override: slot.override, frame: slot.frameMeasuredPower)
    }

    /// The same from the two fields it reads (a tick reads them from the table, not a slot's copy).
    func measuredPower(override: Int32, frame: Int8?) -> Int {
        if override >= 0, let p = settings.beacons[Int(override)].measuredPower { return p }
        if let p = frame, p < 0 { return Int(p) }
        return settings.ranging.distance.defaultMeasuredPower
    }

    /// The configured filter's RSSI at `t` (without the gateway offset); nil without usable samples.
    func filteredRSSI(_ i: Int32, at t: Timestamp) -> Double? {
        let f = settings.ranging.filter
        switch f.kind {
        case .none:
            return table.lastSample(i).map(Double.init)
        case .kalman:
            return table[i].kalman.estimate
        case .median:
            return table.withSamples(i, after: t - f.window, RSSIFilter.median)
        case .trimmedMean:
            return table.withSamples(i, after: t - f.window) { RSSIFilter.trimmedMean($0, trim: f.trim) }
        }
    }

    /// Updates slot `i`'s ranging result at `t` and reports it (`didRangeBeacon`) if the policy says so:
    /// first time in range, proximity class changed, accuracy moved by more than its deadband, the
    /// filtered RSSI by at least its deadband, or the heartbeat is due.
    mutating func range(_ i: Int32, at t: Timestamp, into out: inout [MonitoringEvent]) {
        let filtered = filteredRSSI(i, at: t).map { $0 + settings.rssiOffset }
        let power = measuredPower(override: table[i].override, frame: table[i].frameMeasuredPower)
        let accuracy = DistanceEstimator.accuracy(
            rssi: filtered, measuredPower: Double(power), settings: settings.ranging.distance)
        let proximity = Proximity(accuracy: accuracy, thresholds: settings.ranging.proximity)
        let p = settings.ranging.publish
        // The results and the decision in one access to the slot: field by field, each write
        // checked the table's storage for uniqueness, and the decision read a copy of the slot.
        let due = { (slot: inout BeaconSlot) -> Bool in
            slot.filteredRSSI = filtered
            slot.measuredPower = power
            slot.accuracy = accuracy
            slot.proximity = proximity
            let due: Bool
            if let last = slot.publishedAt {
                let moved =
                    p.accuracyDeadband > 0 && accuracy >= 0 && slot.publishedAccuracy >= 0
                    && abs(accuracy - slot.publishedAccuracy) > p.accuracyDeadband
                let shifted =
                    p.rssiDeadband > 0 && filtered != nil && !slot.publishedRSSI.isNaN
                    && abs(filtered! - Double(slot.publishedRSSI)) >= p.rssiDeadband
                let heartbeat = p.heartbeat > .zero && t - last >= p.heartbeat
                due = (p.onProximityChange && proximity != slot.publishedProximity) || moved || shifted || heartbeat
            } else {
                due = true
            }
            if due {
                slot.publishedAt = t
                slot.publishedAccuracy = accuracy
                slot.publishedProximity = proximity
                slot.publishedRSSI = filtered.map(Float.init) ?? .nan
            }
            return due
        }(&table[i])
        guard due else { return }
        emit(.didRangeBeacon(rangedBeacon(i), at: t), into: &out)
    }

    /// Slot `i` as ranging reports it.
    func rangedBeacon(_ i: Int32) -> RangedBeacon {
        let s = table[i]
        return RangedBeacon(
            identity: s.identity, name: name(of: s), address: s.address, rssi: s.rssi, filteredRSSI: s.filteredRSSI,
            measuredPower: s.measuredPower, accuracy: s.accuracy, proximity: s.proximity, lastSeen: s.lastSeen,
            slot: i, generation: s.generation)
    }

    /// One ranging tick: ranges every beacon seen within `stale_after` (walking the recency list
    /// only as far as that, or the longest exit timeout for attribute refreshes), reports each per
    /// policy, each region's list nearest first (unknown accuracy last, ties by
    /// identity, so the order is deterministic), and due attribute refreshes.
    mutating func tick(at t: Timestamp, into out: inout [MonitoringEvent]) {
        let staleAfter = settings.ranging.staleAfter
        let refresh = settings.monitoring.attributesRefresh
        for r in rangeLists.indices { rangeLists[r].removeAll(keepingCapacity: true) }
        var inRange = 0
        var i = table.head
        while i >= 0 {
            let age = t - table[i].lastSeen
            if age >= horizon { break }
            if table[i].state == .inside && t >= table[i].attributesDue && refresh > .zero {
                while table[i].attributesDue <= t { table[i].attributesDue = table[i].attributesDue + refresh }
                publishBeaconState(table[i], into: &out)
            }
            if age < staleAfter {
                inRange += 1
                range(i, at: t, into: &out)
                for p in regionIndex.positions(table[i].matchList) {
                    rangeLists[Int(regionIndex.region(at: p))].append(i)
                }
            }
            i = table[i].next
        }
        for r in regions.indices {
            if regions[r].state == .inside {
                regions[r].beaconsInRange = rangeLists[r].count
                if refresh > .zero, let due = regions[r].attributesDue, t >= due {
                    var next = due
                    while next <= t { next = next + refresh }
                    regions[r].attributesDue = next
                    publishRegionState(r, into: &out)
                }
            }
            guard settings.ranging.publish.rangingList else { continue }
            if !rangeLists[r].isEmpty {
                rangingOrder.reset()
                for i in rangeLists[r] { rangingOrder.append(accuracy: table[i].accuracy, identity: table[i].identity) }
                rangingOrder.sort()
                var list: [RangedBeacon] = []
                list.reserveCapacity(rangingOrder.keys.count)
                for key in rangingOrder.keys { list.append(rangedBeacon(rangeLists[r][Int(key.1)])) }
                emit(.didRange(settings.regions[r].name, list), into: &out)
                regions[r].rangingNonEmpty = true
            } else if regions[r].rangingNonEmpty {
                emit(.didRange(settings.regions[r].name, []), into: &out)
                regions[r].rangingNonEmpty = false
            }
        }
        rangingIdle = inRange == 0 && insideCount == 0
    }

}
