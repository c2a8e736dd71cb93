/// What the advertiser sends and how: the advertising data, interval, address, connectability,
/// TX power, and the fault timers.
import Vocabulary

public struct AdvertisingConfiguration: Sendable, Equatable {
    /// The address the PDUs carry (Core Spec Vol 6, Part B, §1.3).
    public enum OwnAddress: String, Sendable, Equatable, CaseIterable {
        /// The controller's public device address.
        case `public`
        /// A random static address (the two most significant bits 0b11), set with LE Set
        /// (Advertising Set) Random Address before advertising.
        case randomStatic = "random-static"
    }

    /// The AD structures, at most 31 octets (a legacy PDU's AdvData, §7.8.7).
    public var data: [UInt8]
    /// Advertising interval (min = max), 20 ms…10.24 s.
    public var interval: TimeSpan
    /// Requested TX power in dBm (−127…+20); the extended commands only, nil for no preference.
    public var txPower: Int8?
    public var ownAddress: OwnAddress
    /// The random static address for `.randomStatic`; chosen by the caller, kept across set-ups.
    public var randomAddress: BluetoothAddress?
    /// ADV_IND instead of ADV_NONCONN_IND. Off: a beacon needs no connections.
    public var connectable: Bool
    /// Scanning on the same controller at the same time (the daemon): the set-up first checks LE
    /// Read Supported States for the combination and refuses to advertise without it.
    public var alongsideScan: ScanConfiguration.Mode?
    /// The extended advertising set's handle: above the instances the kernel and bluetoothd use
    /// (HCI_MAX_ADV_INSTANCES is 5), so the set never replaces one of theirs.
    public var handle: UInt8
    /// How long a command may wait for its Command Complete/Status.
    public var commandTimeout: TimeSpan
    /// The set-up is repeated this often while advertising (zero: never), so advertising comes back
    /// after a reset this host did not see. A reset it sees is followed at once.
    public var refresh: TimeSpan

    public static let intervalRange = TimeSpan.milliseconds(20)...TimeSpan.milliseconds(10_240)
    /// Before Bluetooth 5.0, ADV_SCAN_IND and ADV_NONCONN_IND needed an interval of at least 100 ms
    /// (Core Spec 4.2, Vol 2, Part E, §7.8.5); 5.0 lowered it to 20 ms.
    public static let legacyNonConnectableMinimum = TimeSpan.milliseconds(100)
    /// HCI_Version of Bluetooth 5.0 (Assigned Numbers, §2.1).
    public static let bluetooth5HCIVersion: UInt8 = 0x09
    public static let txPowerRange: ClosedRange<Int> = -127...20
    public static let maximumDataLength = 31

    public init(
        data: [UInt8], interval: TimeSpan = .milliseconds(100), txPower: Int8? = nil, ownAddress: OwnAddress = .public,
        randomAddress: BluetoothAddress? = nil, connectable: Bool = false, alongsideScan: ScanConfiguration.Mode? = nil,
        handle: UInt8 = 0x0A, commandTimeout: TimeSpan = .seconds(2), refresh: TimeSpan = .seconds(30)
    ) {
        self.data = data
        self.interval = interval
        self.txPower = txPower
        self.ownAddress = ownAddress
        self.randomAddress = randomAddress
        self.connectable = connectable
        self.alongsideScan = alongsideScan
        self.handle = handle
        self.commandTimeout = commandTimeout
        self.refresh = refresh
    }

    /// A random static address from 48 random bits: the two most significant bits set (§1.3.2.1).
    public static func randomStaticAddress(fromRandomBits bits: UInt64) -> BluetoothAddress {
        BluetoothAddress(rawValue: bits | 0xC000_0000_0000)
    }

    /// A pre-5.0 controller would refuse this interval: legacy commands, non-connectable, under 100 ms.
    /// (Extended advertising exists from 5.0 on, so the extended set never needs the check.)
    public func needsVersionCheck(extended: Bool) -> Bool {
        !extended && !connectable && interval < Self.legacyNonConnectableMinimum
    }

    /// The interval in 0.625 ms units, clamped to 0x0020…0x4000 (§7.8.5).
    public var intervalUnits: UInt16 { UInt16(min(max(interval.microseconds / 625, 0x20), 0x4000)) }

    private var ownAddressType: HCICommand.OwnAddressType { ownAddress == .public ? .public : .random }

    /// The random address command for one command set; nil for the public address.
    public func randomAddressCommand(extended: Bool) -> HCICommand? {
        guard ownAddress == .randomStatic, let randomAddress else { return nil }
        return extended
            ? .leSetAdvertisingSetRandomAddress(handle: handle, randomAddress) : .leSetRandomAddress(randomAddress)
    }

    public func parametersCommand(extended: Bool) -> HCICommand {
        let units = intervalUnits
        guard extended else {
            return .leSetAdvertisingParameters(
                intervalMin: units, intervalMax: units,
                type: connectable ? .connectableUndirected : .nonConnectableUndirected, ownAddressType: ownAddressType)
        }
        return .leSetExtendedAdvertisingParameters(
            handle: handle, properties: connectable ? .legacyConnectable : .legacyNonConnectable,
            intervalMin: UInt32(units), intervalMax: UInt32(units), ownAddressType: ownAddressType,
            txPower: txPower ?? HCICommand.noTXPowerPreference)
    }

    public func dataCommand(extended: Bool) -> HCICommand {
        extended ? .leSetExtendedAdvertisingData(handle: handle, data) : .leSetAdvertisingData(data)
    }

    public func enableCommand(_ enable: Bool, extended: Bool) -> HCICommand {
        extended ? .leSetExtendedAdvertisingEnable(enable, handle: handle) : .leSetAdvertisingEnable(enable)
    }

    /// Every command a set-up sends after the command set is known (the dry run's list).
    public func setUpCommands(extended: Bool) -> [HCICommand] {
        var out = [enableCommand(false, extended: extended)]
        if extended { out.append(.leRemoveAdvertisingSet(handle: handle)) }
        // The extended set exists once its parameters are set; the legacy address must precede them.
        if !extended, let command = randomAddressCommand(extended: false) { out.append(command) }
        out.append(parametersCommand(extended: extended))
        if extended, let command = randomAddressCommand(extended: true) { out.append(command) }
        out += [dataCommand(extended: extended), enableCommand(true, extended: extended)]
        return out
    }

    /// The commands that leave the controller as found: disable, and remove the extended set.
    public func stopCommands(extended: Bool) -> [HCICommand] {
        extended
            ? [enableCommand(false, extended: true), .leRemoveAdvertisingSet(handle: handle)]
            : [enableCommand(false, extended: false)]
    }
}
