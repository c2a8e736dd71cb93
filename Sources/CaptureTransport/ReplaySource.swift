import AgentCore
import BeaconWire
import Glibc
import Platform
import Synchronization
import Vocabulary

/// Replays a capture file (btsnoop, pcap/pcapng, hcidump text) as a packet source: at capture speed,
/// at a multiple of it (`--speed N`), or as fast as the agent takes packets (`--speed max`). The
/// packets keep the capture's timestamps either way.
///
/// The file is streamed (`CaptureStream`), and packets are handed over in batches: at capture speed
/// the source wakes at most every `batchInterval` and hands over every packet due by then, so a
/// dense capture costs a wake-up per batch rather than per packet. The timestamps, and so the
/// messages the pipeline makes, do not depend on the batching; publishing is at most
/// `batchInterval` later. Before a read that may block (a FIFO) the batch so far is handed over.
/// Before it waits for a packet, a file's source says it has handed over all before it
/// (`SourceEvent.caughtUp`), so the agent's timers never move the capture's clock past a packet
/// still held here: a replay at any speed publishes what `replay` computes.
package final class ReplaySource: PacketSource {
    package let path: String
    /// nil: as fast as possible.
    package let speed: Double?
    /// `scanner.read_interval`, for a pipe standing in for a live adapter: once a read found it
    /// drained, the next waits as long as the pacing says, as a held HCI socket is read.
    package let readPacing: ReadPacing.Policy
    /// Most packets per hand-over (`--speed max`, or a backlog at capture speed).
    package static let batchLimit = 256
    /// Room reserved per batch: an advertising report's record is about 60 bytes (header included),
    /// so most batches never grow.
    static let batchBytes = 16 * 1024
    /// Least time between two hand-overs at capture speed. Each hand-over wakes this thread and
    /// the pipeline thread; at 3,000 reports/s, 10 ms cost 1.6 % of a core and 50 ms 1.0 % (perf
    /// stat, footprint bench capture). Timestamps and messages do not depend on it; a replay at
    /// capture speed publishes at most this much late.
    package static let batchInterval = Duration.milliseconds(50)
    /// Taken by `run` (a source runs once).
    private let stream: Mutex<CaptureStream?>
    private let stopped = StopSignal()

    /// Opens the file and checks its container format up front.
    package init(path: String, speed: Double?, readPacing: ReadPacing.Policy = .adaptive) throws {
        let opened: CaptureStream
        do {
            opened = try CaptureStream(path: path)
        } catch {
            throw ReplayError(error.description, .noInput)
        }
        stream = Mutex(opened)
        self.path = path
        self.speed = speed
        self.readPacing = readPacing
    }

    /// An unreadable file (66) when opening, a damaged capture (65) while reading.
    package struct ReplayError: SourceFailure {
        package var description: String
        package var exitCode: ExitCode
        init(_ d: String, _ exitCode: ExitCode) {
            description = d
            self.exitCode = exitCode
        }
        package var exitStatus: Int32 { exitCode.rawValue }
    }

    package func stop() { stopped.stop() }

    private var isStopped: Bool { stopped.isStopped }

    package func run(_ deliver: @escaping @Sendable (SourceEvent) -> Void) throws {
        guard var stream = stream.withLock({ $0.take() }) else { return deliver(.end) }
        var batch = PacketBatch(reservingBytes: Self.batchBytes)
        let batchInterval = Int64(Self.batchInterval / .nanoseconds(1))
        // CLOCK_MONOTONIC in nanoseconds: ContinuousClock's Instants do their arithmetic on
        // 128-bit Durations through generic Comparable calls, a fifth of this thread's work per packet.
        var lastHandOver = MonotonicClock.now().nanoseconds
        func handOver() {
            guard !batch.isEmpty else { return }
            deliver(.packets(batch))
            batch = PacketBatch(reservingBytes: Self.batchBytes)
        }
        var first: (capture: Timestamp, wall: Int64)?
        // The clock is read again only when a packet is due after the last reading: a dense
        // capture reads it once per batch, not once per packet.
        var now = lastHandOver
        var pacing = stream.isPipe ? ReadPacing(readPacing) : ReadPacing(.fixed(.zero))
        var lastRead = lastHandOver
        /// Packets read since the pipe was last found drained (the pacing's arrival rate).
        var readSinceDrain = 0
        while !isStopped {
            let timestamp: Timestamp
            do {
                guard let next = try stream.nextBuffered(into: &batch) else {
                    guard stream.needsRead else { break }
                    handOver()
                    if stream.drained {
                        let hold = pacing.drained(
                            reports: readSinceDrain, at: MonotonicInstant(nanoseconds: lastRead))
                        readSinceDrain = 0
                        let wait = lastRead &+ hold.microseconds &* 1_000 &- MonotonicClock.now().nanoseconds
                        if wait > 0, !stopped.sleep(for: .nanoseconds(wait)) { break }
                    }
                    try stream.read()
                    lastRead = MonotonicClock.now().nanoseconds
                    continue
                }
                timestamp = next
                readSinceDrain += 1
            } catch {
                handOver()
                deliver(.end)
                throw ReplayError(error.description, .dataError)
            }
            if let speed, speed > 0 {
                if let first {
                    let offset = Double((timestamp - first.capture).microseconds) / speed
                    let due = first.wall &+ Int64(offset) &* 1_000
                    if due > now { now = MonotonicClock.now().nanoseconds }
                    if due > now {
                        // The packet just read is not due: the batch goes without it.
                        var held = PacketBatch(reservingBytes: Self.batchBytes)
                        batch.moveLast(to: &held)
                        if !batch.isEmpty { deliver(.packets(batch)) }
                        if !stream.isPipe { deliver(.caughtUp(through: timestamp)) }
                        batch = held
                        stopped.sleep(for: .nanoseconds(max(due, lastHandOver &+ batchInterval) &- now))
                        now = MonotonicClock.now().nanoseconds
                        lastHandOver = now
                    }
                } else {
                    now = MonotonicClock.now().nanoseconds
                    first = (timestamp, now)
                    // From here on the agent's clock waits for this source between packets.
                    if !stream.isPipe { deliver(.caughtUp(through: timestamp)) }
                }
            }
            if batch.count >= Self.batchLimit { handOver() }
        }
        handOver()
        deliver(.end)
    }
}
