import BeaconWire
import Vocabulary

/// What a gateway advertises (`beacon2mqtt advertise`, the configuration's `advertise:` section):
/// the beacon frame and how it is sent. Built from named text values by `AdvertiseSettings.make`,
/// the one validation the command line and the configuration share.
package struct AdvertiseSettings: Sendable, Equatable {
    package enum Format: String, Sendable, CaseIterable {
        case iBeacon = "ibeacon"
        case altBeacon = "altbeacon"
        case eddystoneUID = "eddystone-uid"
        case eddystoneURL = "eddystone-url"

        /// The fields this format takes (besides the common ones), required ones first.
        package var required: [AdvertiseField] {
            switch self {
            case .iBeacon: return [.uuid, .major, .minor]
            case .altBeacon: return [.id1, .id2, .id3]
            case .eddystoneUID: return [.namespace, .instance]
            case .eddystoneURL: return [.url]
            }
        }

        package var optional: [AdvertiseField] {
            switch self {
            case .iBeacon, .eddystoneUID, .eddystoneURL: return [.measuredPower]
            case .altBeacon: return [.companyID, .referenceRSSI]
            }
        }
    }

    package var beacon: Beacon
    package var interval: TimeSpan
    /// Requested radio TX power, dBm; nil for the controller's choice.
    package var txPower: Int8?
    package var address: AdvertisingConfiguration.OwnAddress
    package var connectable: Bool

    package static let defaultInterval = TimeSpan.milliseconds(100)
    /// Calibrated RSSI at 1 m when none is given: Apple's typical iBeacon value.
    package static let defaultMeasuredPower: Int8 = -59
    /// AltBeacon without `company-id`: 0xFFFF, the Bluetooth SIG's id for tests and no company.
    package static let defaultCompanyID: UInt16 = 0xFFFF
    /// Eddystone carries the power at 0 m: 41 dB above the power at 1 m (the Eddystone spec's loss).
    package static let eddystoneLossAt1m = 41

    package init(
        beacon: Beacon, interval: TimeSpan = defaultInterval, txPower: Int8? = nil,
        address: AdvertisingConfiguration.OwnAddress = .public, connectable: Bool = false
    ) {
        self.beacon = beacon
        self.interval = interval
        self.txPower = txPower
        self.address = address
        self.connectable = connectable
    }

    /// Validates `values` (text as the user wrote it) for `format`; fields the format does not take
    /// are errors, so a misplaced `--major` never passes silently.
    package static func make(
        format: Format, values: [AdvertiseField: String], interval: TimeSpan?, connectable: Bool
    ) throws(AdvertiseSettingsError) -> AdvertiseSettings {
        let allowed = Set(format.required + format.optional + AdvertiseField.common)
        if let stray = AdvertiseField.allCases.first(where: { values[$0] != nil && !allowed.contains($0) }) {
            throw AdvertiseSettingsError(stray, "does not apply to \(format.rawValue)")
        }
        if let missing = format.required.first(where: { values[$0] == nil }) {
            throw AdvertiseSettingsError(missing, "is required for \(format.rawValue)")
        }
        let reader = FieldReader(values: values)
        let power = try reader.int8(.measuredPower) ?? defaultMeasuredPower
        let beacon: Beacon
        switch format {
        case .iBeacon:
            beacon = .iBeacon(
                IBeacon(
                    uuid: try reader.uuid(.uuid), major: try reader.uint16(.major)!, minor: try reader.uint16(.minor)!,
                    measuredPower: power))
        case .altBeacon:
            beacon = .altBeacon(
                AltBeacon(
                    companyID: try reader.uint16(.companyID) ?? defaultCompanyID, id1: try reader.uuid(.id1),
                    id2: try reader.uint16(.id2)!, id3: try reader.uint16(.id3)!,
                    referenceRSSI: try reader.int8(.referenceRSSI) ?? defaultMeasuredPower, manufacturerReserved: 0))
        case .eddystoneUID:
            let namespace = try reader.hex(.namespace, octets: 10)
            let instance = try reader.hex(.instance, octets: 6)
            let bytes = namespace + instance
            let id = BeaconID128(
                high: bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) },
                low: bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) })
            beacon = .eddystone(.uid(EddystoneUID(txPowerAt0m: try eddystonePower(power), id: id)))
        case .eddystoneURL:
            let url = values[.url]!
            beacon = .eddystone(.url(EddystoneURL(txPowerAt0m: try eddystonePower(power), url: url)))
        }
        do {
            _ = try BeaconEncoder.advertisingData(beacon)
        } catch {
            throw AdvertiseSettingsError(.url, error.description)
        }
        let interval = interval ?? defaultInterval
        guard AdvertisingConfiguration.intervalRange.contains(interval) else {
            throw AdvertiseSettingsError(.interval, "must be from 20ms to 10.24s")
        }
        var txPower: Int8?
        if let text = values[.txPower] {
            guard let value = Int(text), AdvertisingConfiguration.txPowerRange.contains(value) else {
                throw AdvertiseSettingsError(.txPower, "needs a whole number of dBm from -127 to 20, not '\(text)'")
            }
            txPower = Int8(value)
        }
        var address = AdvertisingConfiguration.OwnAddress.public
        if let text = values[.address] {
            guard let parsed = AdvertisingConfiguration.OwnAddress(rawValue: text) else {
                throw AdvertiseSettingsError(.address, "takes package or random-static, not '\(text)'")
            }
            address = parsed
        }
        return AdvertiseSettings(
            beacon: beacon, interval: interval, txPower: txPower, address: address, connectable: connectable)
    }

    private static func eddystonePower(_ atOneMetre: Int8) throws(AdvertiseSettingsError) -> Int8 {
        let value = Int(atOneMetre) + eddystoneLossAt1m
        guard let power = Int8(exactly: value) else {
            throw AdvertiseSettingsError(
                .measuredPower, "\(atOneMetre) dBm at 1 m is \(value) dBm at 0 m, beyond what Eddystone carries")
        }
        return power
    }

    /// The AD structures sent (flags first).
    package var advertisingData: [UInt8] {
        // `make` encoded the beacon once already, so this cannot fail for a value it built.
        (try? BeaconEncoder.advertisingData(beacon)) ?? BeaconEncoder.flags
    }
}

/// Parses one field's text, naming the field when it is wrong.
private struct FieldReader {
    let values: [AdvertiseField: String]

    func text(_ field: AdvertiseField) -> String? { values[field] }

    func uint16(_ field: AdvertiseField) throws(AdvertiseSettingsError) -> UInt16? {
        guard let text = values[field] else { return nil }
        let lower = text.lowercased()
        let value = lower.hasPrefix("0x") ? UInt16(lower.dropFirst(2), radix: 16) : UInt16(lower)
        guard let value else {
            throw AdvertiseSettingsError(
                field, "needs a whole number from 0 to 65535 (or 0x0000–0xffff), not '\(text)'")
        }
        return value
    }

    func int8(_ field: AdvertiseField) throws(AdvertiseSettingsError) -> Int8? {
        guard let text = values[field] else { return nil }
        guard let value = Int8(text) else {
            throw AdvertiseSettingsError(field, "needs a whole number of dBm from -128 to 127, not '\(text)'")
        }
        return value
    }

    func uuid(_ field: AdvertiseField) throws(AdvertiseSettingsError) -> BeaconID128 {
        let text = values[field] ?? ""
        guard let id = BeaconID128(uuidString: text) else {
            throw AdvertiseSettingsError(field, "needs a UUID (e2c56db5-dffb-48d2-b060-d0f5a71096e0), not '\(text)'")
        }
        return id
    }

    func hex(_ field: AdvertiseField, octets: Int) throws(AdvertiseSettingsError) -> [UInt8] {
        let text = values[field] ?? ""
        let digits = text.lowercased().hasPrefix("0x") ? String(text.dropFirst(2)) : text
        guard let bytes = Hex.bytes(digits, digits: 2 * octets) else {
            throw AdvertiseSettingsError(field, "needs \(octets) octets as \(2 * octets) hex digits, not '\(text)'")
        }
        return bytes
    }
}
