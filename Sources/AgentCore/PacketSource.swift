/// A thin transport adapter that produces HCI packets: the live HCI socket, a capture file,
/// or the simulator. `run` blocks on the caller's thread until `stop()` or the end of input.
package protocol PacketSource: AnyObject, Sendable {
    func run(_ deliver: @escaping @Sendable (SourceEvent) -> Void) throws
    /// Safe to call from any thread; makes `run` return soon.
    func stop()
}
