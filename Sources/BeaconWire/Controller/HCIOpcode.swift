/// An HCI command opcode: OGF in the upper 6 bits, OCF in the lower 10 (Core Spec Vol 4, Part E, §5.4.1).
/// Sent little-endian.
public struct HCIOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public init(ogf: UInt8, ocf: UInt16) { self.rawValue = UInt16(ogf & 0x3F) << 10 | (ocf & 0x3FF) }

    public var ogf: UInt8 { UInt8(rawValue >> 10) }
    public var ocf: UInt16 { rawValue & 0x3FF }

    /// HCI_Set_Event_Mask, §7.3.1.
    public static let setEventMask = Self(ogf: 0x03, ocf: 0x0001)
    /// HCI_Reset, §7.3.2.
    public static let reset = Self(ogf: 0x03, ocf: 0x0003)
    /// HCI_Read_Local_Version_Information, §7.4.1.
    public static let readLocalVersionInformation = Self(ogf: 0x04, ocf: 0x0001)
    /// HCI_Read_Local_Supported_Commands, §7.4.2.
    public static let readLocalSupportedCommands = Self(ogf: 0x04, ocf: 0x0002)
    /// HCI_Read_BD_ADDR, §7.4.6.
    public static let readBDAddr = Self(ogf: 0x04, ocf: 0x0009)
    /// HCI_LE_Set_Event_Mask, §7.8.1.
    public static let leSetEventMask = Self(ogf: 0x08, ocf: 0x0001)
    /// HCI_LE_Set_Random_Address, §7.8.4.
    public static let leSetRandomAddress = Self(ogf: 0x08, ocf: 0x0005)
    /// HCI_LE_Set_Advertising_Parameters, §7.8.5.
    public static let leSetAdvertisingParameters = Self(ogf: 0x08, ocf: 0x0006)
    /// HCI_LE_Set_Advertising_Data, §7.8.7.
    public static let leSetAdvertisingData = Self(ogf: 0x08, ocf: 0x0008)
    /// HCI_LE_Set_Advertising_Enable, §7.8.9.
    public static let leSetAdvertisingEnable = Self(ogf: 0x08, ocf: 0x000A)
    /// HCI_LE_Read_Supported_States, §7.8.27.
    public static let leReadSupportedStates = Self(ogf: 0x08, ocf: 0x001C)
    /// HCI_LE_Set_Advertising_Set_Random_Address, §7.8.52.
    public static let leSetAdvertisingSetRandomAddress = Self(ogf: 0x08, ocf: 0x0035)
    /// HCI_LE_Set_Extended_Advertising_Parameters, §7.8.53.
    public static let leSetExtendedAdvertisingParameters = Self(ogf: 0x08, ocf: 0x0036)
    /// HCI_LE_Set_Extended_Advertising_Data, §7.8.54.
    public static let leSetExtendedAdvertisingData = Self(ogf: 0x08, ocf: 0x0037)
    /// HCI_LE_Set_Extended_Advertising_Enable, §7.8.56.
    public static let leSetExtendedAdvertisingEnable = Self(ogf: 0x08, ocf: 0x0039)
    /// HCI_LE_Remove_Advertising_Set, §7.8.59.
    public static let leRemoveAdvertisingSet = Self(ogf: 0x08, ocf: 0x003C)
    /// HCI_LE_Set_Scan_Parameters, §7.8.10.
    public static let leSetScanParameters = Self(ogf: 0x08, ocf: 0x000B)
    /// HCI_LE_Set_Scan_Enable, §7.8.11.
    public static let leSetScanEnable = Self(ogf: 0x08, ocf: 0x000C)
    /// HCI_LE_Set_Extended_Scan_Parameters, §7.8.64.
    public static let leSetExtendedScanParameters = Self(ogf: 0x08, ocf: 0x0041)
    /// HCI_LE_Set_Extended_Scan_Enable, §7.8.65.
    public static let leSetExtendedScanEnable = Self(ogf: 0x08, ocf: 0x0042)

    /// The spec name for the commands this package sends; hex otherwise.
    public var description: String {
        switch self {
        case .setEventMask: return "Set Event Mask"
        case .reset: return "HCI Reset"
        case .readLocalVersionInformation: return "Read Local Version Information"
        case .readLocalSupportedCommands: return "Read Local Supported Commands"
        case .readBDAddr: return "Read BD_ADDR"
        case .leSetEventMask: return "LE Set Event Mask"
        case .leSetRandomAddress: return "LE Set Random Address"
        case .leSetAdvertisingParameters: return "LE Set Advertising Parameters"
        case .leSetAdvertisingData: return "LE Set Advertising Data"
        case .leSetAdvertisingEnable: return "LE Set Advertising Enable"
        case .leReadSupportedStates: return "LE Read Supported States"
        case .leSetAdvertisingSetRandomAddress: return "LE Set Advertising Set Random Address"
        case .leSetExtendedAdvertisingParameters: return "LE Set Extended Advertising Parameters"
        case .leSetExtendedAdvertisingData: return "LE Set Extended Advertising Data"
        case .leSetExtendedAdvertisingEnable: return "LE Set Extended Advertising Enable"
        case .leRemoveAdvertisingSet: return "LE Remove Advertising Set"
        case .leSetScanParameters: return "LE Set Scan Parameters"
        case .leSetScanEnable: return "LE Set Scan Enable"
        case .leSetExtendedScanParameters: return "LE Set Extended Scan Parameters"
        case .leSetExtendedScanEnable: return "LE Set Extended Scan Enable"
        default: return "opcode 0x" + Hex.string([UInt8(rawValue >> 8), UInt8(rawValue & 0xFF)])
        }
    }
}
