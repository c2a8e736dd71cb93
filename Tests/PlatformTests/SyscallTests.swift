import Glibc
import Synchronization
import Testing

@testable import CLI
@testable import IntegrationSupport
@testable import Platform

/// The one syscall helper and the one interruptible sleep (Sources/Platform).
@Suite struct SyscallTests {
    @Test func aFailedCallCarriesTheErrnoOfThatCall() {
        #expect(throws: SystemCallError("open", code: ENOENT)) {
            try Syscall.retrying("open") { open("/nonexistent/beacon2mqtt", O_RDONLY | O_CLOEXEC) }
        }
        let error = SystemCallError("open '/x'", code: ENOENT)
        #expect(error.description == "open '/x': No such file or directory")
    }

    @Test func eintrIsRetriedAndOtherFailuresAreNot() {
        var calls = 0
        let result = try? Syscall.retrying("fake") { () -> Int32 in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7 && calls == 3)
        calls = 0
        #expect(throws: SystemCallError("fake", code: EIO)) {
            try Syscall.retrying("fake") { () -> Int32 in
                calls += 1
                errno = EIO
                return -1
            }
        }
        #expect(calls == 1)
    }

    @Test func pollTimesOutNoEarlierThanAskedAndSeesData() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { for fd in ends { close(fd) } }
        let started = ContinuousClock.now
        let idle = try Syscall.poll(ends[0], timeout: .milliseconds(30)) { SystemCallError("poll", code: $0) }
        #expect(idle == 0)
        #expect(ContinuousClock.now - started >= .milliseconds(30))
        try Syscall.writeAll(ends[1], [1, 2, 3]) { SystemCallError("write", code: $0) }
        let ready = try Syscall.poll(ends[0], timeout: .seconds(5)) { SystemCallError("poll", code: $0) }
        #expect(ready & Int16(POLLIN) != 0)
    }
}

@Suite struct StopSignalTests {
    @Test func aSleepRunsItsFullTimeWithoutStop() {
        let signal = StopSignal()
        let started = ContinuousClock.now
        #expect(signal.sleep(for: .milliseconds(30)))
        #expect(ContinuousClock.now - started >= .milliseconds(30))
        #expect(!signal.isStopped)
    }

    @Test func stopWakesASleeperAtOnceAndLaterSleepsReturnAtOnce() {
        let signal = StopSignal()
        let woke = Mutex<Duration?>(nil)
        let finished = Atomic<Bool>(false)
        let done = ConditionLock()
        PosixThread.start(name: "sleeper") {
            let started = ContinuousClock.now
            let completed = signal.sleep(for: .seconds(30))
            woke.withLock { $0 = completed ? nil : ContinuousClock.now - started }
            done.lock()
            finished.store(true, ordering: .sequentiallyConsistent)
            done.signal()
            done.unlock()
        }
        usleep(50_000)
        done.lock()
        signal.stop()
        signal.stop()  // idempotent
        while !finished.load(ordering: .sequentiallyConsistent) { done.wait() }
        done.unlock()
        let slept = woke.withLock { $0 }
        #expect(slept != nil && slept! < .seconds(5))
        let started = ContinuousClock.now
        #expect(!signal.sleep(for: .seconds(30)))
        #expect(ContinuousClock.now - started < .seconds(1))
    }
}
