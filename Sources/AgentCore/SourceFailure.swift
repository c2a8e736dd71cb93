/// An error that ends a packet source for good, typed from where it happens (HCI socket, capture
/// file) to the process's exit: the agent publishes what it has, then the process exits with
/// `exitStatus` (sysexits(3): 65 a damaged capture, 69 no usable Bluetooth …).
package protocol SourceFailure: Error, Sendable, CustomStringConvertible {
    var exitStatus: Int32 { get }
}
