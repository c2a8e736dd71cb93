/// An HCI status / error code, with its name from Core Spec Vol 1, Part F, §1.3 (v5.4; 0x46–0x47 from v6.0).
///
/// Printed as `Command Disallowed (0x0C)` in errors and logs, so an operator can search for it.
public struct HCIStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let success = Self(rawValue: 0x00)
    public static let unknownCommand = Self(rawValue: 0x01)
    public static let hardwareFailure = Self(rawValue: 0x03)
    public static let commandDisallowed = Self(rawValue: 0x0C)
    public static let unsupportedFeatureOrParameterValue = Self(rawValue: 0x11)
    public static let invalidCommandParameters = Self(rawValue: 0x12)

    public var isSuccess: Bool { rawValue == 0 }

    /// The spec name; codes the spec reserves print as `Reserved`, unknown ones as `Unknown status`.
    public var name: String {
        let index = Int(rawValue)
        return index < Self.names.count ? Self.names[index] : "Unknown status"
    }

    /// `Command Disallowed (0x0C)`.
    public var description: String { "\(name) (0x\(Hex.string([rawValue]).uppercased()))" }

    /// Indexed by code. Vol 1, Part F, §1.3, "List of error codes".
    static let names: [String] = [
        "Success",  // 0x00
        "Unknown HCI Command",
        "Unknown Connection Identifier",
        "Hardware Failure",
        "Page Timeout",
        "Authentication Failure",
        "PIN or Key Missing",
        "Memory Capacity Exceeded",
        "Connection Timeout",
        "Connection Limit Exceeded",
        "Synchronous Connection Limit To A Device Exceeded",
        "Connection Already Exists",
        "Command Disallowed",  // 0x0C
        "Connection Rejected due to Limited Resources",
        "Connection Rejected Due To Security Reasons",
        "Connection Rejected due to Unacceptable BD_ADDR",
        "Connection Accept Timeout Exceeded",  // 0x10
        "Unsupported Feature or Parameter Value",
        "Invalid HCI Command Parameters",
        "Remote User Terminated Connection",
        "Remote Device Terminated Connection due to Low Resources",
        "Remote Device Terminated Connection due to Power Off",
        "Connection Terminated By Local Host",
        "Repeated Attempts",
        "Pairing Not Allowed",
        "Unknown LMP PDU",
        "Unsupported Remote Feature",
        "SCO Offset Rejected",
        "SCO Interval Rejected",
        "SCO Air Mode Rejected",
        "Invalid LMP Parameters / Invalid LL Parameters",
        "Unspecified Error",
        "Unsupported LMP Parameter Value / Unsupported LL Parameter Value",  // 0x20
        "Role Change Not Allowed",
        "LMP Response Timeout / LL Response Timeout",
        "LMP Error Transaction Collision / LL Procedure Collision",
        "LMP PDU Not Allowed",
        "Encryption Mode Not Acceptable",
        "Link Key cannot be Changed",
        "Requested QoS Not Supported",
        "Instant Passed",
        "Pairing With Unit Key Not Supported",
        "Different Transaction Collision",
        "Reserved",  // 0x2B
        "QoS Unacceptable Parameter",
        "QoS Rejected",
        "Channel Classification Not Supported",
        "Insufficient Security",
        "Parameter Out Of Mandatory Range",  // 0x30
        "Reserved",  // 0x31
        "Role Switch Pending",
        "Reserved",  // 0x33
        "Reserved Slot Violation",
        "Role Switch Failed",
        "Extended Inquiry Response Too Large",
        "Secure Simple Pairing Not Supported By Host",
        "Host Busy - Pairing",
        "Connection Rejected due to No Suitable Channel Found",
        "Controller Busy",
        "Unacceptable Connection Parameters",
        "Advertising Timeout",
        "Connection Terminated due to MIC Failure",
        "Connection Failed to be Established / Synchronization Timeout",
        "Previously Used",  // 0x3F
        "Coarse Clock Adjustment Rejected but Will Try to Adjust Using Clock Dragging",  // 0x40
        "Type0 Submap Not Defined",
        "Unknown Advertising Identifier",
        "Limit Reached",
        "Operation Cancelled by Host",
        "Packet Too Long",  // 0x45
        "Too Late",  // 0x46, v6.0
        "Too Early",  // 0x47, v6.0
    ]
}
