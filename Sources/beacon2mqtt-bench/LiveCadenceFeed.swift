import BeaconWire
import Foundation
import Glibc
import Platform
import Synchronization
import Vocabulary

/// Feeds `beacon2mqtt run --replay FIFO --speed max` the footprint's steady load the way a live
/// adapter delivers it: one report per write, each when it is due (3,000 a second from 500 beacons),
/// stamped with the time it was written. The agent's source then reads it as an HCI socket would
/// be read (`scanner.read_interval`: at once, held, or as the adaptive default decides); the
/// replayed capture hands over every 50 ms instead. With `newcomerEvery`, every that many reports
/// one comes from a beacon never seen before, and the time it was written is kept (`written`) for
/// its enter's latency. Runs on its own thread until `stop()` or `seconds` pass.
final class LiveCadenceFeed: Sendable {
    private let path: String
    private let population: BeaconPopulation
    private let rate: Int
    private let seconds: Int
    private let newcomerEvery: Int?
    private let done = DispatchSemaphore(value: 0)
    private let stopped = Mutex(false)
    private let writtenAt = Mutex<[String: UInt64]>([:])

    init(fifo path: String, population: BeaconPopulation, rate: Int, seconds: Int, newcomerEvery: Int? = nil) {
        self.path = path
        self.population = population
        self.rate = rate
        self.seconds = seconds
        self.newcomerEvery = newcomerEvery
    }

    /// Each newcomer's enter topic, and when (monotonic ns) its first report was written.
    var written: [String: UInt64] { writtenAt.withLock { $0 } }

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
        let newcomers = BeaconPopulation(beacons: newcomerEvery.map { rate * seconds / $0 + 1 } ?? 0, regions: 1)
        var newcomer = 0
        for n in 0..<(rate * seconds) {
            if isStopped { return }
            let due = start + UInt64(Double(n) * interval)
            // Sleep, not spin: a spinning feeder would take the core the agent needs.
            let now = BenchClock.now()
            if due > now { BenchClock.sleep(Double(due - now) / 1e9) }
            let t0 = BenchClock.now()
            let written = epoch + TimeSpan(microseconds: Int64((t0 - start) / 1_000))
            var report = population.report(n % population.beacons, sequence: n / population.beacons)
            if let every = newcomerEvery, n % every == 0 {
                // Distinct UUID space (as `LatencyProbe`'s): a newcomer never collides with the population.
                report = newcomers.report(newcomer, sequence: 0)
                report[report.count - 22] ^= 0xFF
                newcomer += 1
                if let topic = LatencyProbe.enterTopic(report) { writtenAt.withLock { $0[topic] = t0 } }
            }
            guard write(BtsnoopWriter.record(CapturedPacket(timestamp: written, bytes: report))) else { return }
        }
    }
}
