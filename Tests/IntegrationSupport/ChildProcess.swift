import Foundation

/// A child process for tests, spawned with an empty signal mask and default dispositions.
///
/// Foundation's `Process` on Linux passes on the spawning thread's signal mask, and the Swift
/// concurrency worker threads that run tests block almost every signal: a broker or agent started
/// that way never sees SIGTERM or SIGHUP. posix_spawn with POSIX_SPAWN_SETSIGMASK fixes that.
final class ChildProcess: @unchecked Sendable {
    let pid: pid_t
    private var status: Int32?

    /// Starts `path` with `arguments`; stdout and stderr go to `output` (or /dev/null).
    init(_ path: String, _ arguments: [String], output: String? = nil, environment: [String: String]? = nil) throws {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let target = output ?? "/dev/null"
        posix_spawn_file_actions_addopen(&actions, 1, target, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for arg in argv { free(arg) } }
        let env = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for variable in env { free(variable) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, path, &actions, &attributes, argv, env)
        guard rc == 0 else {
            throw MosquittoBroker.BrokerError("cannot spawn \(path): \(String(cString: strerror(rc)))")
        }
        pid = child
    }

    deinit {
        if status == nil {
            kill(pid, SIGKILL)
            _ = wait(timeout: 5)
        }
    }

    func signal(_ signal: Int32) { if status == nil { kill(pid, signal) } }

    /// The exit status (or 128 + signal), once the process has ended within `timeout` seconds.
    @discardableResult
    func wait(timeout: Double) -> Int32? {
        if let status { return status }
        _ = waitUntil(timeout: timeout) {
            var raw: Int32 = 0
            let r = waitpid(pid, &raw, WNOHANG)
            guard r == pid else { return false }
            let signalled = raw & 0x7F
            status = signalled == 0 ? (raw >> 8) & 0xFF : 128 + signalled
            return true
        }
        return status
    }

    var isRunning: Bool { wait(timeout: 0) == nil }
}
