/// The 64-octet Supported_Commands bit mask returned by HCI_Read_Local_Supported_Commands
/// (Core Spec Vol 4, Part E, §7.4.2; bit positions in §6.27).
public struct SupportedCommands: Sendable, Equatable {
    /// One command's position in the mask: octet and bit within it (bit 0 = least significant).
    public struct Position: Sendable, Hashable {
        public var octet: Int
        public var bit: Int
        public init(octet: Int, bit: Int) {
            self.octet = octet
            self.bit = bit
        }
    }

    public static let leSetScanParameters = Position(octet: 26, bit: 2)
    public static let leSetScanEnable = Position(octet: 26, bit: 3)
    public static let leSetRandomAddress = Position(octet: 25, bit: 4)
    public static let leSetAdvertisingParameters = Position(octet: 25, bit: 5)
    public static let leSetAdvertisingData = Position(octet: 25, bit: 7)
    public static let leSetAdvertisingEnable = Position(octet: 26, bit: 1)
    public static let leReadSupportedStates = Position(octet: 28, bit: 3)
    public static let leSetAdvertisingSetRandomAddress = Position(octet: 36, bit: 1)
    public static let leSetExtendedAdvertisingParameters = Position(octet: 36, bit: 2)
    public static let leSetExtendedAdvertisingData = Position(octet: 36, bit: 3)
    public static let leSetExtendedAdvertisingEnable = Position(octet: 36, bit: 5)
    public static let leRemoveAdvertisingSet = Position(octet: 37, bit: 0)
    public static let leSetExtendedScanParameters = Position(octet: 37, bit: 5)
    public static let leSetExtendedScanEnable = Position(octet: 37, bit: 6)

    public var octets: [UInt8]

    /// `octets` may be shorter than 64 (a truncated reply): missing octets read as "not supported".
    public init(octets: [UInt8]) { self.octets = octets }

    /// From the Return_Parameters of the Command Complete (Status first, then the 64 octets).
    public init(returnParameters: [UInt8]) { self.init(octets: Array(returnParameters.dropFirst().prefix(64))) }

    public func contains(_ position: Position) -> Bool {
        guard position.octet >= 0, position.octet < octets.count, (0..<8).contains(position.bit) else { return false }
        return octets[position.octet] & (1 << UInt8(position.bit)) != 0
    }

    /// Both extended scan commands are needed: the command sets must never be mixed (§3.1.1).
    public var supportsExtendedScanning: Bool {
        contains(Self.leSetExtendedScanParameters) && contains(Self.leSetExtendedScanEnable)
    }

    /// Extended advertising needs parameters, data, enable and remove (the set is removed on stop);
    /// as with scanning, the two command sets are never mixed.
    public var supportsExtendedAdvertising: Bool {
        [
            Self.leSetExtendedAdvertisingParameters, Self.leSetExtendedAdvertisingData,
            Self.leSetExtendedAdvertisingEnable,
            Self.leRemoveAdvertisingSet,
        ].allSatisfy(contains)
    }
}
