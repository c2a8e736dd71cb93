import BeaconWire
import Vocabulary

/// Asks one controller what it supports, for `beacon2mqtt adapters`.
package enum HCIAdapterProbe {
    /// Whether the controller lists both LE Set Extended Scan commands (Read Local Supported Commands,
    /// Core Spec Vol 4, Part E, §7.4.2); nil when it did not answer within `timeout`.
    package static func supportsExtendedScanning(
        over transport: any HCITransport, timeout: TimeSpan = .seconds(1)
    ) throws(HCIError) -> Bool? {
        try transport.send(HCICommand.readLocalSupportedCommands.packet)
        // Other hosts' traffic may interleave; a handful of reads is plenty for one reply.
        for _ in 0..<32 {
            guard let packet = try transport.receive(timeout: timeout) else { return nil }
            guard case .commandComplete(let complete)? = try? HCIPacketDecoder.controllerEvent(packet),
                complete.opcode == .readLocalSupportedCommands
            else { continue }
            guard complete.status.isSuccess else { return nil }
            return SupportedCommands(returnParameters: complete.returnParameters).supportsExtendedScanning
        }
        return nil
    }
}
