import AgentCore
import BeaconWire
import Glibc
import MessageContract
import Synchronization
import Testing
import Vocabulary

@testable import CLI
@testable import IntegrationSupport
@testable import MQTTTransport
@testable import Platform

/// The small Glibc-based stand-ins for Foundation in Platform.
@Suite struct SystemSupportTests {
    /// The uptime and counters are as of the last stats message; AGE says how old it is, so a
    /// gateway 40 s into its first minute does not seem 5 s old (issue 34).
    @Test func statusRowsShowStatsFieldsUptimeAndTheirAge() throws {
        let now = try #require(RetainedAttributes.timestamp(rfc3339: "2026-12-05T10:00:40.900Z"))
        let rows = StatusCommand.rows(
            [
                "b/gateways/gw1/status": "online",
                "b/gateways/gw1/stats":
                    #"{"uptime":3725,"reports_per_s":2.5,"beacons_tracked":4,"degraded":"no adapter","timestamp":"2026-12-05T10:00:05.000Z"}"#,
                "b/gateways/gw2/stats": "not json",
            ], base: "b", now: now)
        #expect(rows.count == 2)
        #expect(rows[0] == ["gw1", "online", "1h02m", "35s", "2.5", "4", "-", "-", "-", "-", "no adapter"])
        #expect(rows[1] == ["gw2", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-"])
        #expect(StatusCommand.table(rows).hasPrefix("GATEWAY  STATUS  UPTIME  AGE  REPORTS/S"))
    }

    @Test func threadsRunTheirBodyUnderTheirName() throws {
        let name = Mutex<String?>(nil)
        let done = Mutex(false)
        PosixThread.start(name: "a-rather-long-thread-name") {
            let fd = open("/proc/thread-self/comm", O_RDONLY)
            var buffer = [UInt8](repeating: 0, count: 64)
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            close(fd)
            name.withLock { $0 = String(decoding: buffer.prefix(max(n, 0)), as: UTF8.self) }
            done.withLock { $0 = true }
        }
        #expect(waitUntil { done.withLock { $0 } })
        #expect(name.withLock { $0 } == "a-rather-long-t\n")
    }

    @Test func sleepWaitsAndTheWallClockFollowsTheSystemClock() {
        let before = WallClock.now()
        StopSignal().sleep(for: .milliseconds(30))
        let slept = WallClock.now() - before
        #expect(slept >= .milliseconds(29))
        #expect(abs(before.microseconds / 1_000_000 - Int64(time(nil))) < 2)
    }

    @Test func environmentComesFromEnviron() {
        setenv("BEACON2MQTT_SYSTEM_TEST", "a=b", 1)
        defer { unsetenv("BEACON2MQTT_SYSTEM_TEST") }
        #expect(ProcessEnvironment.current()["BEACON2MQTT_SYSTEM_TEST"] == "a=b")
    }

    @Test func filesAreReadWholeAndErrorsCarryErrnoText() throws {
        let path = "/tmp/beacon2mqtt-system-\(getpid())"
        defer { unlink(path) }
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o640)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        #expect(try FileSystem.contents(path) == bytes)
        #expect(FileSystem.exists(path))
        #expect(FileSystem.permissions(path) == 0o640)
        #expect(throws: (any Error).self) { try FileSystem.text(path) }  // not UTF-8
        #expect(!FileSystem.exists(path + ".absent"))
        #expect(FileSystem.permissions(path + ".absent") == nil)
        do {
            _ = try FileSystem.contents(path + ".absent")
            Issue.record("read a missing file")
        } catch {
            #expect("\(error)" == "No such file or directory")
        }
    }

    @Test func retryDelaysPrintInTenths() {
        #expect(MosquittoClient.tenths(.milliseconds(2_449)) == "2.4s")
        #expect(MosquittoClient.tenths(.milliseconds(2_450)) == "2.5s")
        #expect(MosquittoClient.tenths(.seconds(30)) == "30.0s")
    }
}

/// `ConditionLock`: the wait/signal handshake the agent's event queue is built on.
@Suite struct ConditionLockTests {
    @Test func aTimedWaitEndsAtItsDeadlineWithoutASignal() {
        let condition = ConditionLock()
        let start = MonotonicClock.now()
        condition.lock()
        let signalled = condition.wait(until: start + .milliseconds(50))
        condition.unlock()
        #expect(!signalled)
        #expect(MonotonicClock.now().seconds(since: start) >= 0.049)
    }

    @Test func aBroadcastWakesTheWaiter() {
        final class Shared: @unchecked Sendable {
            // Invariant: `ready` is only touched with `condition` locked.
            let condition = ConditionLock()
            var ready = false
        }
        let shared = Shared()
        PosixThread.start(name: "signaller") {
            usleep(20_000)
            shared.condition.lock()
            shared.ready = true
            shared.condition.broadcast()
            shared.condition.unlock()
        }
        let deadline = MonotonicClock.now() + .seconds(10)
        shared.condition.lock()
        while !shared.ready, shared.condition.wait(until: deadline) {}
        let ready = shared.ready
        shared.condition.unlock()
        #expect(ready)
        #expect(MonotonicClock.now() < deadline)
    }
}

/// `WaitableState`: the waits on a state (MQTT connected, offline acknowledged, status quiet).
@Suite struct WaitableStateTests {
    @Test func aWaitEndsWhenAnotherThreadMakesItsConditionTrue() {
        let state = WaitableState(0)
        PosixThread.start(name: "changer") {
            for _ in 1...3 {
                usleep(10_000)
                state.withLock { $0 += 1 }
            }
        }
        let started = MonotonicClock.now()
        #expect(state.wait(for: .seconds(30)) { $0 == 3 })
        #expect(MonotonicClock.now().seconds(since: started) < 10, "woken by the change, not the deadline")
        #expect(state.withLock { $0 } == 3)
    }

    @Test func aWaitGivesUpAtItsDeadlineWithoutAChange() {
        let state = WaitableState(false)
        let started = MonotonicClock.now()
        #expect(!state.wait(for: .milliseconds(50)) { $0 })
        #expect(MonotonicClock.now().seconds(since: started) >= 0.049)
        // Already true: no wait at all, even with no time left.
        state.withLock { $0 = true }
        #expect(state.wait(for: .zero) { $0 })
    }
}
