/// The LE_States bit mask returned by HCI_LE_Read_Supported_States (Core Spec Vol 4, Part E,
/// §7.8.27): which states and state combinations the link layer supports at the same time.
public struct LESupportedStates: Sendable, Equatable {
    /// Bit 8: non-connectable advertising + passive scanning; 12: + active scanning.
    /// Bits 10 and 14: the same with connectable advertising.
    public static let nonConnectableAdvertisingAndPassiveScanning = 8
    public static let connectableAdvertisingAndPassiveScanning = 10
    public static let nonConnectableAdvertisingAndActiveScanning = 12
    public static let connectableAdvertisingAndActiveScanning = 14

    public var octets: [UInt8]

    public init(octets: [UInt8]) { self.octets = octets }

    /// From the Return_Parameters of the Command Complete (Status first, then 8 octets).
    public init(returnParameters: [UInt8]) { self.init(octets: Array(returnParameters.dropFirst().prefix(8))) }

    /// Bit `n` of the 64-bit little-endian mask; missing octets read as "not supported".
    public func contains(bit n: Int) -> Bool {
        guard n >= 0, n / 8 < octets.count else { return false }
        return octets[n / 8] & (1 << UInt8(n % 8)) != 0
    }

    /// Whether advertising (connectable or not) may run while the controller scans (actively or not).
    public func allowsAdvertising(connectable: Bool, whileScanning active: Bool) -> Bool {
        switch (connectable, active) {
        case (false, false): return contains(bit: Self.nonConnectableAdvertisingAndPassiveScanning)
        case (true, false): return contains(bit: Self.connectableAdvertisingAndPassiveScanning)
        case (false, true): return contains(bit: Self.nonConnectableAdvertisingAndActiveScanning)
        case (true, true): return contains(bit: Self.connectableAdvertisingAndActiveScanning)
        }
    }
}
