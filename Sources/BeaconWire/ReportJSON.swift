/// One JSON line per advertising report, for `beacon2mqtt decode`. Key order is fixed:
/// `timestamp` (when given), kind, event_type, event_type_name, legacy_pdu, data_status,
/// primary_phy, secondary_phy, sid, tx_power, address_type, address, rssi, data, ad,
/// ad_truncated_at (only when the AD data was truncated), beacons.
import Vocabulary

public enum ReportJSON {
    /// The report as one line of compact JSON (no trailing newline).
    public static func line(for report: AdvertisingReport, timestamp: Timestamp? = nil) -> String {
        var w = JSONWriter()
        write(report, timestamp: timestamp, to: &w)
        return w.text
    }

    public static func write(_ report: AdvertisingReport, timestamp: Timestamp? = nil, to w: inout JSONWriter) {
        w.beginObject()
        if let timestamp { w.field("timestamp", timestamp.rfc3339) }
        w.field("kind", Self.name(of: report.kind))
        w.field("event_type", Int(report.eventType))
        w.key("event_type_name")
        if report.kind != .extended {
            w.string(legacyEventTypeName(report.eventType))
        } else {
            w.beginArray()
            for name in extendedEventTypeFlags(report.eventType) { w.string(name) }
            w.endArray()
        }
        w.field("legacy_pdu", report.isLegacyPDU)
        w.field("data_status", Int(report.dataStatus))
        w.field("primary_phy", Int(report.primaryPHY))
        w.field("secondary_phy", Int(report.secondaryPHY))
        w.field("sid", Int(report.sid))
        w.field("tx_power", report.txPower == 127 ? nil : Int(report.txPower))
        w.field("address_type", Int(report.addressType))
        w.field("address", report.address.description)
        w.field("rssi", report.rssi == 127 ? nil : Int(report.rssi))
        writeADFields(report.data, to: &w)
        w.endObject()
    }

    static func name(of kind: AdvertisingReport.Kind) -> String {
        switch kind {
        case .legacy: return "legacy"
        case .directed: return "directed"
        case .extended: return "extended"
        }
    }

    /// The `data`, `ad`, `ad_truncated_at` (only when truncated) and `beacons` fields of AD data,
    /// inside an object the caller has begun; `decode --ad` prints just these.
    public static func writeADFields(_ data: [UInt8], to w: inout JSONWriter) {
        w.field("data", Hex.string(data))
        let (structures, truncatedAt) = ADStructure.parse(data)
        w.key("ad")
        w.beginArray()
        for s in structures {
            w.beginObject()
            w.field("type", Int(s.type))
            w.field("data", Hex.string(s.data))
            w.endObject()
        }
        w.endArray()
        if let truncatedAt { w.field("ad_truncated_at", truncatedAt) }
        w.key("beacons")
        w.beginArray()
        for beacon in BeaconDecoder.beacons(inAD: data) { write(beacon, to: &w) }
        w.endArray()
    }

    /// One beacon frame as a JSON object with a `type` discriminator.
    public static func write(_ beacon: Beacon, to w: inout JSONWriter) {
        w.beginObject()
        switch beacon {
        case .iBeacon(let b):
            w.field("type", "ibeacon")
            w.field("uuid", b.uuid.uuidString)
            w.field("major", Int(b.major))
            w.field("minor", Int(b.minor))
            w.field("measured_power", Int(b.measuredPower))
        case .altBeacon(let b):
            w.field("type", "altbeacon")
            w.field("company_id", Int(b.companyID))
            w.field("id1", b.id1.uuidString)
            w.field("id2", Int(b.id2))
            w.field("id3", Int(b.id3))
            w.field("reference_rssi", Int(b.referenceRSSI))
            w.field("mfg_reserved", b.manufacturerReserved.map { Int($0) })
        case .eddystone(.uid(let u)):
            let identity = BeaconIdentity.eddystone(u.id)
            w.field("type", "eddystone_uid")
            w.field("namespace", identity.eddystoneNamespace)
            w.field("instance", identity.eddystoneInstance)
            w.field("tx_power", Int(u.txPowerAt0m))
        case .eddystone(.url(let u)):
            w.field("type", "eddystone_url")
            w.field("url", u.url)
            w.field("tx_power", Int(u.txPowerAt0m))
        case .eddystone(.tlm(let t)):
            w.field("type", "eddystone_tlm")
            w.field("battery_mv", t.battery.map { Int($0) })
            w.field("temperature", t.temperature, decimals: 3)
            w.field("adv_count", Int(t.advertisingCount))
            w.field("uptime_s", t.uptimeSeconds, decimals: 1)
        case .eddystone(.eid(let e)):
            w.field("type", "eddystone_eid")
            w.field("eid", Hex.string((0..<8).map { UInt8(truncatingIfNeeded: e.ephemeralID >> (56 - 8 * $0)) }))
            w.field("tx_power", Int(e.txPowerAt0m))
        case .eddystone(.unknown(let frameType)):
            w.field("type", "eddystone_unknown")
            w.field("frame_type", Int(frameType))
        }
        w.endObject()
    }

    /// Legacy Event_Type names, Core Spec Vol 4, Part E, §7.7.65.2.
    public static func legacyEventTypeName(_ eventType: UInt16) -> String {
        switch eventType {
        case 0: return "ADV_IND"
        case 1: return "ADV_DIRECT_IND"
        case 2: return "ADV_SCAN_IND"
        case 3: return "ADV_NONCONN_IND"
        case 4: return "SCAN_RSP"
        default: return "RESERVED"
        }
    }

    /// Names of the set bits 0–4 of an extended Event_Type, §7.7.65.13 (bits 5–6 are `data_status`).
    public static func extendedEventTypeFlags(_ eventType: UInt16) -> [String] {
        let names = ["connectable", "scannable", "directed", "scan_response", "legacy"]
        return names.indices.filter { eventType & (1 << UInt16($0)) != 0 }.map { names[$0] }
    }
}
