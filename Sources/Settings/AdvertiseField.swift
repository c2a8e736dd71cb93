/// One named value of an advertisement, spelt `--measured-power` on the command line and
/// `measured_power` in the configuration.
package enum AdvertiseField: String, Sendable, CaseIterable, Hashable {
    case uuid, major, minor
    case measuredPower = "measured-power"
    case id1, id2, id3
    case companyID = "company-id"
    case referenceRSSI = "reference-rssi"
    case namespace, instance, url
    case interval
    case txPower = "tx-power"
    case address

    /// The fields every format takes.
    package static let common: [AdvertiseField] = [.interval, .txPower, .address]

    package var option: String { "--" + rawValue }
    package var configKey: String { rawValue.split(separator: "-").joined(separator: "_") }
}
