/// HCI event codes the daemon decodes (Core Spec Vol 4, Part E, §7.7). The LE Meta subevents that
/// carry advertising reports are the cases of `AdvertisingReport.Kind`, one set for the scanner and
/// the report path alike.
public enum HCIEventCode {
    /// HCI_Disconnection_Complete (§7.7.5).
    public static let disconnectionComplete: UInt8 = 0x05
    /// HCI_Command_Complete (§7.7.14).
    public static let commandComplete: UInt8 = 0x0E
    /// HCI_Command_Status (§7.7.15).
    public static let commandStatus: UInt8 = 0x0F
    /// HCI_Hardware_Error (§7.7.16).
    public static let hardwareError: UInt8 = 0x10
    /// HCI_LE_Meta (§7.7.65); the first parameter is the subevent code.
    public static let leMeta: UInt8 = 0x3E

    /// True for the LE Meta subevents that carry advertising reports (0x02, 0x0B, 0x0D).
    @inlinable @inline(__always)
    public static func isAdvertisingReport(subevent: UInt8) -> Bool {
        AdvertisingReport.Kind(rawValue: subevent) != nil
    }
}
