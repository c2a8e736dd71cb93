import BeaconWire
import Platform
import Vocabulary

/// The byte pipe under the scanner: whole HCI packets with their H4 indicator, in and out.
///
/// The real one is `HCISocket`; tests use an `HCIDescriptor` on a socketpair with a scripted
/// controller on the other end. Used from one thread at a time (the source's reader thread).
package protocol HCITransport: AnyObject {
    /// Writes one packet (an HCI command, indicator 0x01 first).
    func send(_ packet: [UInt8]) throws(HCIError)
    /// Waits for the next packet and hands its bytes to `body`, in place (valid only during the
    /// call: the live source copies them into its batch); false when nothing arrived within
    /// `timeout`, or `stop` (if any) was stopped, which ends the wait at once.
    func receive(
        timeout: TimeSpan, unlessStopped stop: StopSignal?, _ body: (UnsafeRawBufferPointer) -> Void
    ) throws(HCIError) -> Bool
    /// Readies the transport to be read every `interval` rather than at each packet: the kernel
    /// attaches each packet's receive time (`receivedAt`) and has room to queue `interval`'s worth of
    /// packets. False when it cannot attach the times.
    func holdPackets(for interval: TimeSpan) -> Bool
    /// When the kernel received the packet `receive` handed over last (CLOCK_REALTIME), once
    /// `holdPackets` is on; nil before, or when the packet carried no time.
    var receivedAt: Timestamp? { get }
    /// Releases the transport (restoring anything it changed). Idempotent.
    func close()
}

extension HCITransport {
    /// The receive buffer `holdPackets(for: interval)` asks for: 5,000 packets a second (above the
    /// busiest controller) at 640 bytes each, which the kernel doubles for its own overhead (an
    /// event's buffer is about 1 KiB of `truesize`).
    static func receiveBufferBytes(holding interval: TimeSpan) -> Int32 {
        Int32(clamping: max(0, interval.microseconds) * 5_000 * 640 / 1_000_000)
    }

    /// The next packet as an array, or nil when nothing arrived within `timeout` or `stop` was stopped.
    func receive(timeout: TimeSpan, unlessStopped stop: StopSignal?) throws(HCIError) -> [UInt8]? {
        var packet: [UInt8]?
        _ = try receive(timeout: timeout, unlessStopped: stop) { packet = Array($0) }
        return packet
    }

    /// The next packet, or nil when nothing arrived within `timeout`.
    func receive(timeout: TimeSpan) throws(HCIError) -> [UInt8]? { try receive(timeout: timeout, unlessStopped: nil) }
}
