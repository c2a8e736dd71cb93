import AgentCore
import Glibc
import Platform

/// Turns SIGINT, SIGTERM and SIGHUP into agent events on one thread with sigwait(3).
///
/// `blockSignals()` must run before any other thread starts (the mosquitto network thread, the
/// source, Dispatch workers): threads inherit the mask, so the signals then stay pending until
/// this thread takes them, instead of killing the process or interrupting a random thread.
package enum SignalWatcher {
    package static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Blocks the handled signals in the calling thread (and every thread it creates after).
    package static func blockSignals() {
        var set = signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Starts the waiting thread; each signal is posted to `queue`.
    package static func start(posting queue: AgentEventQueue) {
        start { queue.post(.signal(signal($0))) }
    }

    /// Starts the waiting thread; `onSignal` gets each handled signal's number, on that thread.
    package static func start(_ onSignal: @escaping @Sendable (Int32) -> Void) {
        PosixThread.start(name: "signals") {
            var set = signalSet()
            while true {
                var received: Int32 = 0
                if sigwait(&set, &received) == 0 { onSignal(received) }
            }
        }
    }

    /// The agent core's view of a handled signal.
    package static func signal(_ number: Int32) -> AgentSignal {
        number == SIGHUP ? .reload : .stop(name: name(number))
    }

    /// How logs name a signal (`signal=SIGTERM`), in `run` and `locate` alike.
    package static func name(_ number: Int32) -> String {
        switch number {
        case SIGHUP: "SIGHUP"
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        default: "\(number)"
        }
    }

    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for s in handled { sigaddset(&set, s) }
        return set
    }
}
