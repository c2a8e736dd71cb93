import BeaconWire
import Platform

/// The byte pipe under the scanner: whole HCI packets with their H4 indicator, in and out.
///
/// The real one is `HCISocket`; tests use an `HCIDescriptor` on a socketpair with a scripted
/// controller on the other end. Used from one thread at a time (the source's reader thread).
package protocol HCITransport: AnyObject {
    /// Writes one packet (an HCI command, indicator 0x01 first).
    func send(_ packet: [UInt8]) throws(HCIError)
    /// The next packet, or nil when nothing arrived within `timeout`, or `stop` (if any) was
    /// stopped, which ends the wait at once.
    func receive(timeout: TimeSpan, unlessStopped stop: StopSignal?) throws(HCIError) -> [UInt8]?
    /// Releases the transport (restoring anything it changed). Idempotent.
    func close()
}

extension HCITransport {
    /// The next packet, or nil when nothing arrived within `timeout`.
    func receive(timeout: TimeSpan) throws(HCIError) -> [UInt8]? { try receive(timeout: timeout, unlessStopped: nil) }
}
