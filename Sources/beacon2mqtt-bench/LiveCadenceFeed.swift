import BeaconWire
import Foundation
import Glibc
import Platform
import Synchronization
import Vocabulary

/// Feeds `beacon2mqtt run --replay FIFO --speed max` the footprint's steady load the way a live
/// adapter delivers it: one report per write, each when it is due (3,000 a second from 500 beacons),
/// stamped with the time it was written. The agent's source then wakes for about every report, as
/// an HCI socket read as packets arrive (`scanner.read_interval: 0`) does; the replayed capture
/// hands over every 50 ms instead. Runs on its own thread until `stop()` or `seconds` pass.
final class LiveCadenceFeed: Sendable {
    private let path: String
    private let population: BeaconPopulation
    private let rate: Int
    private let seconds: Int
    private let done = DispatchSemaphore(value: 0)
    private let stopped = Mutex(false)

    init(fifo path: String, population: BeaconPopulation, rate: Int, seconds: Int) {
        self.path = path
        self.population = population
        self.rate = rate
        self.seconds = seconds
    }

    /// Starts writing; the first write waits until the agent opens the FIFO.
    func start() {
        Thread.detachNewThread { [self] in
            feed()
            done.signal()
        }
    }

    /// Ends the feed and waits for its thread (a writer still waiting in `open` is released).
    func stop() {
        stopped.withLock { $0 = true }
        // Opening the read end releases an `open` for writing that no agent answered.
        let unblock = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        _ = done.wait(timeout: .now() + 10)
        if unblock >= 0 { close(unblock) }
    }

    private var isStopped: Bool { stopped.withLock { $0 } }

    private func feed() {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        // False once the agent has gone (EPIPE: the bench ignores SIGPIPE).
        func write(_ bytes: [UInt8]) -> Bool {
            (try? Syscall.writeAll(fd, bytes) { SystemCallError("write \(path)", code: $0) }) != nil
        }
        guard write(BtsnoopWriter.fileHeader()) else { return }
        let epoch = CaptureWorkloads.origin
        let start = BenchClock.now()
        let interval = 1e9 / Double(rate)
        for n in 0..<(rate * seconds) {
            if isStopped { return }
            let due = start + UInt64(Double(n) * interval)
            // Sleep, not spin: a spinning feeder would take the core the agent needs.
            let now = BenchClock.now()
            if due > now { BenchClock.sleep(Double(due - now) / 1e9) }
            let written = epoch + TimeSpan(microseconds: Int64((BenchClock.now() - start) / 1_000))
            let report = population.report(n % population.beacons, sequence: n / population.beacons)
            guard write(BtsnoopWriter.record(CapturedPacket(timestamp: written, bytes: report))) else { return }
        }
    }
}
