/// The LE advertising commands (Core Spec Vol 4, Part E, §7.8). Parameters little-endian (§5.2);
/// advertising intervals in 0.625 ms units.
extension HCICommand {
    /// Advertising_Type of LE Set Advertising Parameters (§7.8.5).
    public enum LegacyAdvertisingType: UInt8, Sendable {
        /// ADV_IND: connectable and scannable undirected.
        case connectableUndirected = 0x00
        /// ADV_SCAN_IND: scannable undirected.
        case scannableUndirected = 0x02
        /// ADV_NONCONN_IND: non-connectable undirected — what a beacon sends.
        case nonConnectableUndirected = 0x03
    }

    /// Own_Address_Type (§7.8.5, §7.8.53): 0x00 the public device address, 0x01 the random address.
    public enum OwnAddressType: UInt8, Sendable {
        case `public` = 0x00
        case random = 0x01
    }

    /// All three primary advertising channels (37, 38, 39).
    public static let allAdvertisingChannels: UInt8 = 0x07

    /// HCI_LE_Set_Random_Address (§7.8.4): the address, little-endian.
    public static func leSetRandomAddress(_ address: BluetoothAddress) -> Self {
        Self(opcode: .leSetRandomAddress, parameters: littleEndian(address))
    }

    /// HCI_LE_Set_Advertising_Parameters (§7.8.5): interval min and max (0x0020…0x4000), type,
    /// own address type, peer address type and peer address (unused when undirected: zero), channel
    /// map, filter policy (0x00: any scanner, any initiator). 15 octets.
    public static func leSetAdvertisingParameters(
        intervalMin: UInt16, intervalMax: UInt16, type: LegacyAdvertisingType, ownAddressType: OwnAddressType,
        channelMap: UInt8 = allAdvertisingChannels, filterPolicy: UInt8 = 0
    ) -> Self {
        var p: [UInt8] = []
        p.appendLittleEndian(intervalMin)
        p.appendLittleEndian(intervalMax)
        p += [type.rawValue, ownAddressType.rawValue, 0x00]
        p += [UInt8](repeating: 0, count: 6)
        p += [channelMap, filterPolicy]
        return Self(opcode: .leSetAdvertisingParameters, parameters: p)
    }

    /// HCI_LE_Set_Advertising_Data (§7.8.7): length, then 31 octets (the data, zero-padded).
    public static func leSetAdvertisingData(_ data: [UInt8]) -> Self {
        let bytes = Array(data.prefix(31))
        return Self(
            opcode: .leSetAdvertisingData,
            parameters: [UInt8(bytes.count)] + bytes + [UInt8](repeating: 0, count: 31 - bytes.count))
    }

    /// HCI_LE_Set_Advertising_Enable (§7.8.9).
    public static func leSetAdvertisingEnable(_ enable: Bool) -> Self {
        Self(opcode: .leSetAdvertisingEnable, parameters: [enable ? 1 : 0])
    }

    /// HCI_LE_Read_Supported_States (§7.8.27): no parameters; returns the 8-octet LE_States.
    public static let leReadSupportedStates = Self(opcode: .leReadSupportedStates)

    /// Advertising_Event_Properties (§7.8.53), bit 4 = use legacy PDUs: legacy PDUs from an
    /// extended set, so phones and scanners that only know legacy advertising see them.
    public struct AdvertisingEventProperties: OptionSet, Sendable, Hashable {
        public var rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }
        public static let connectable = Self(rawValue: 1 << 0)
        public static let scannable = Self(rawValue: 1 << 1)
        public static let legacyPDUs = Self(rawValue: 1 << 4)
        /// ADV_NONCONN_IND as an extended set (Table 7.2: 0b0010000).
        public static let legacyNonConnectable: Self = [.legacyPDUs]
        /// ADV_IND as an extended set (0b0010011).
        public static let legacyConnectable: Self = [.legacyPDUs, .connectable, .scannable]
    }

    /// Advertising_TX_Power (§7.8.53): −127…+20 dBm, or 0x7F, "Host has no preference".
    public static let noTXPowerPreference: Int8 = 0x7F

    /// HCI_LE_Set_Extended_Advertising_Parameters [v1] (§7.8.53), 25 octets: handle, event
    /// properties(2), primary interval min and max (3 each, 0x000020…), channel map, own address
    /// type, peer address type and address, filter policy, TX power, primary PHY (LE 1M), secondary
    /// max skip, secondary PHY (LE 1M), SID, scan request notification (off).
    public static func leSetExtendedAdvertisingParameters(
        handle: UInt8, properties: AdvertisingEventProperties, intervalMin: UInt32, intervalMax: UInt32,
        ownAddressType: OwnAddressType, txPower: Int8 = noTXPowerPreference, sid: UInt8 = 0,
        channelMap: UInt8 = allAdvertisingChannels, filterPolicy: UInt8 = 0
    ) -> Self {
        var p: [UInt8] = [handle]
        p.appendLittleEndian(properties.rawValue)
        p += littleEndian24(intervalMin) + littleEndian24(intervalMax)
        p += [channelMap, ownAddressType.rawValue, 0x00]
        p += [UInt8](repeating: 0, count: 6)
        p += [filterPolicy, UInt8(bitPattern: txPower), 0x01, 0x00, 0x01, sid, 0x00]
        return Self(opcode: .leSetExtendedAdvertisingParameters, parameters: p)
    }

    /// HCI_LE_Set_Advertising_Set_Random_Address (§7.8.52): handle, address little-endian.
    public static func leSetAdvertisingSetRandomAddress(handle: UInt8, _ address: BluetoothAddress) -> Self {
        Self(opcode: .leSetAdvertisingSetRandomAddress, parameters: [handle] + littleEndian(address))
    }

    /// HCI_LE_Set_Extended_Advertising_Data (§7.8.54): handle, Operation 0x03 (complete data),
    /// Fragment_Preference 0x01 (the controller should not fragment), length, data.
    public static func leSetExtendedAdvertisingData(handle: UInt8, _ data: [UInt8]) -> Self {
        let bytes = Array(data.prefix(251))
        return Self(
            opcode: .leSetExtendedAdvertisingData, parameters: [handle, 0x03, 0x01, UInt8(bytes.count)] + bytes)
    }

    /// HCI_LE_Set_Extended_Advertising_Enable (§7.8.56) for one set: Enable, Num_Sets 1, handle,
    /// Duration 0 (until disabled), Max_Extended_Advertising_Events 0 (no limit).
    public static func leSetExtendedAdvertisingEnable(_ enable: Bool, handle: UInt8) -> Self {
        Self(opcode: .leSetExtendedAdvertisingEnable, parameters: [enable ? 1 : 0, 0x01, handle, 0x00, 0x00, 0x00])
    }

    /// HCI_LE_Remove_Advertising_Set (§7.8.59): handle.
    public static func leRemoveAdvertisingSet(handle: UInt8) -> Self {
        Self(opcode: .leRemoveAdvertisingSet, parameters: [handle])
    }

    private static func littleEndian(_ address: BluetoothAddress) -> [UInt8] {
        (0..<6).map { UInt8(truncatingIfNeeded: address.rawValue >> UInt64(8 * $0)) }
    }

    private static func littleEndian24(_ value: UInt32) -> [UInt8] {
        (0..<3).map { UInt8(truncatingIfNeeded: value >> UInt32(8 * $0)) }
    }
}
