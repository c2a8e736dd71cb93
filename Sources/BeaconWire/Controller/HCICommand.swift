/// One HCI command packet: opcode and parameters (Core Spec Vol 4, Part E, §5.4.1).
///
/// `packet` is what goes on a raw HCI socket: the H4 indicator 0x01, the opcode little-endian,
/// the parameter length, the parameters. Multi-byte parameters are little-endian (§5.2).
public struct HCICommand: Hashable, Sendable, CustomStringConvertible {
    public var opcode: HCIOpcode
    public var parameters: [UInt8]

    public init(opcode: HCIOpcode, parameters: [UInt8] = []) {
        self.opcode = opcode
        self.parameters = parameters
    }

    /// H4 packet indicator for HCI command packets (Vol 4, Part A, §2).
    public static let packetIndicator: UInt8 = 0x01

    public var packet: [UInt8] {
        var out: [UInt8] = [Self.packetIndicator, UInt8(opcode.rawValue & 0xFF), UInt8(opcode.rawValue >> 8)]
        out.append(UInt8(clamping: parameters.count))
        out.append(contentsOf: parameters.prefix(255))
        return out
    }

    public var description: String { opcode.description }

    // MARK: - Commands (Vol 4, Part E, §7)

    /// HCI_Reset (§7.3.2): no parameters.
    public static let reset = Self(opcode: .reset)
    /// HCI_Read_Local_Version_Information (§7.4.1): no parameters; returns HCI_Version first.
    public static let readLocalVersionInformation = Self(opcode: .readLocalVersionInformation)
    /// HCI_Read_Local_Supported_Commands (§7.4.2): no parameters.
    public static let readLocalSupportedCommands = Self(opcode: .readLocalSupportedCommands)
    /// HCI_Read_BD_ADDR (§7.4.6): no parameters.
    public static let readBDAddr = Self(opcode: .readBDAddr)

    /// HCI_Set_Event_Mask (§7.3.1): 8 octets, bit n enables event code n + 1.
    public static func setEventMask(_ mask: UInt64) -> Self {
        Self(opcode: .setEventMask, parameters: littleEndian(mask))
    }

    /// HCI_LE_Set_Event_Mask (§7.8.1): 8 octets, bit n enables LE subevent n + 1.
    public static func leSetEventMask(_ mask: UInt64) -> Self {
        Self(opcode: .leSetEventMask, parameters: littleEndian(mask))
    }

    /// After HCI_Reset the controller is back to the default Event_Mask 0x00001FFFFFFFFFFF, which
    /// leaves LE Meta (bit 61) off: without restoring it no advertising report would ever arrive.
    public static let eventMaskWithLEMeta: UInt64 = 0x0000_1FFF_FFFF_FFFF | 1 << 61
    /// The default LE mask (bits 0–4) plus LE Directed Advertising Report (bit 10) and LE Extended
    /// Advertising Report (bit 12).
    public static let leEventMaskWithAdvertisingReports: UInt64 = 0x1F | 1 << 10 | 1 << 12

    private static func littleEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * $0)) }
    }

    /// HCI_LE_Set_Scan_Parameters (§7.8.10).
    /// - Parameters:
    ///   - active: LE_Scan_Type 0x01 (active: sends SCAN_REQ) or 0x00 (passive).
    ///   - interval, window: LE_Scan_Interval / LE_Scan_Window in 0.625 ms units (0x0004…0x4000).
    ///   - ownAddressType: 0x00 public.
    ///   - filterPolicy: 0x00 accept all advertising packets.
    public static func leSetScanParameters(
        active: Bool, interval: UInt16, window: UInt16, ownAddressType: UInt8 = 0, filterPolicy: UInt8 = 0
    ) -> Self {
        var p: [UInt8] = [active ? 1 : 0]
        p.appendLittleEndian(interval)
        p.appendLittleEndian(window)
        p.append(ownAddressType)
        p.append(filterPolicy)
        return Self(opcode: .leSetScanParameters, parameters: p)
    }

    /// HCI_LE_Set_Scan_Enable (§7.8.11): LE_Scan_Enable, Filter_Duplicates.
    public static func leSetScanEnable(_ enable: Bool, filterDuplicates: Bool = false) -> Self {
        Self(opcode: .leSetScanEnable, parameters: [enable ? 1 : 0, filterDuplicates ? 1 : 0])
    }

    /// One PHY's entry in LE Set Extended Scan Parameters (§7.8.64): Scan_Type, Scan_Interval,
    /// Scan_Window, with interval and window in 0.625 ms units (0x0004…0xFFFF).
    public struct PHYScanParameters: Hashable, Sendable {
        public var active: Bool
        public var interval: UInt16
        public var window: UInt16
        public init(active: Bool, interval: UInt16, window: UInt16) {
            self.active = active
            self.interval = interval
            self.window = window
        }
    }

    /// HCI_LE_Set_Extended_Scan_Parameters (§7.8.64). Scanning_PHYs bit 0 is LE 1M, bit 2 LE Coded;
    /// one parameter block follows per set bit, 1M first.
    public static func leSetExtendedScanParameters(
        le1M: PHYScanParameters?, leCoded: PHYScanParameters?, ownAddressType: UInt8 = 0, filterPolicy: UInt8 = 0
    ) -> Self {
        var phys: UInt8 = 0
        if le1M != nil { phys |= 0x01 }
        if leCoded != nil { phys |= 0x04 }
        var p: [UInt8] = [ownAddressType, filterPolicy, phys]
        for block in [le1M, leCoded] {
            guard let block else { continue }
            p.append(block.active ? 1 : 0)
            p.appendLittleEndian(block.interval)
            p.appendLittleEndian(block.window)
        }
        return Self(opcode: .leSetExtendedScanParameters, parameters: p)
    }

    /// HCI_LE_Set_Extended_Scan_Enable (§7.8.65): Enable, Filter_Duplicates, Duration (10 ms units,
    /// 0 = until disabled), Period (1.28 s units, 0 = not periodic).
    public static func leSetExtendedScanEnable(
        _ enable: Bool, filterDuplicates: Bool = false, duration: UInt16 = 0, period: UInt16 = 0
    ) -> Self {
        var p: [UInt8] = [enable ? 1 : 0, filterDuplicates ? 1 : 0]
        p.appendLittleEndian(duration)
        p.appendLittleEndian(period)
        return Self(opcode: .leSetExtendedScanEnable, parameters: p)
    }
}

extension [UInt8] {
    /// HCI parameters are little-endian (Vol 4, Part E, §5.2).
    mutating func appendLittleEndian(_ value: UInt16) {
        append(UInt8(value & 0xFF))
        append(UInt8(value >> 8))
    }
}
