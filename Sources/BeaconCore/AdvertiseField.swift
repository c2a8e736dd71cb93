/// One named value of an advertisement, spelt `--measured-power` on the command line and
/// `measured_power` in the configuration.
public enum AdvertiseField: String, Sendable, CaseIterable, Hashable {
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
    public static let common: [AdvertiseField] = [.interval, .txPower, .address]

    public var option: String { "--" + rawValue }
    public var configKey: String { rawValue.split(separator: "-").joined(separator: "_") }
}
