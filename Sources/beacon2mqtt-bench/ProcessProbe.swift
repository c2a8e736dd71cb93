import Foundation

/// Reads a running process's memory and CPU use from procfs (proc(5)).
struct ProcessProbe {
    let pid: Int32

    struct Sample {
        /// Monotonic wall clock of the sample, ns.
        var at: UInt64
        /// Resident set now and its peak (VmRSS, VmHWM), KiB.
        var rssKiB: Int
        var peakRSSKiB: Int
        /// The anonymous part of VmRSS (heap, stacks): what the agent allocated, as opposed to
        /// mapped files such as its own binary and libraries.
        var anonRSSKiB: Int
        /// File-backed resident pages: the executable and shared libraries (Swift runtime, Foundation).
        var fileRSSKiB: Int
        /// utime + stime, in clock ticks.
        var cpuTicks: Int
        /// Time on a CPU of the live threads (`/proc/PID/task/*/schedstat`), ns: finer than the ticks.
        var cpuNanoseconds: UInt64 = 0
    }

    static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// nil once the process is gone (or a zombie, whose memory figures are gone).
    func sample() -> Sample? {
        let at = BenchClock.now()
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        else { return nil }
        func kib(_ key: String) -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(key + ":") }) else { return 0 }
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        // Fields after the parenthesised command name (which may contain spaces): state is field 3,
        // utime field 14, stime field 15.
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let utime = Int(fields[11]), let stime = Int(fields[12]) else { return nil }
        guard kib("VmRSS") > 0 else { return nil }
        return Sample(
            at: at, rssKiB: kib("VmRSS"), peakRSSKiB: kib("VmHWM"), anonRSSKiB: kib("RssAnon"),
            fileRSSKiB: kib("RssFile"), cpuTicks: utime + stime, cpuNanoseconds: threadsOnCPU())
    }

    /// The sum of the first field of each thread's schedstat (sched-stats.rst): ns spent running.
    private func threadsOnCPU() -> UInt64 {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.reduce(0) { sum, task in
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8)) ?? ""
            return sum + (UInt64(text.split(separator: " ").first ?? "") ?? 0)
        }
    }

    /// How far the process has read `path` (its open descriptor's `pos:` in fdinfo), or nil when it
    /// does not have it open.
    func readPosition(of path: String) -> Int? {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        for fd in fds
        where (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")) == path {
            let info = (try? String(contentsOfFile: "/proc/\(pid)/fdinfo/\(fd)", encoding: .utf8)) ?? ""
            guard let line = info.split(separator: "\n").first(where: { $0.hasPrefix("pos:") }) else { return nil }
            return Int(line.dropFirst(4).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    /// CPU use between two samples, as a percentage of one core.
    static func cpuPercent(from a: Sample, to b: Sample) -> Double {
        let wall = Double(b.at &- a.at) / 1e9
        guard wall > 0 else { return 0 }
        return Double(b.cpuTicks - a.cpuTicks) / ticksPerSecond / wall * 100
    }

    /// The same from the threads' schedstat (to the nanosecond, where the ticks are 10 ms): for a
    /// process whose threads all live from one sample to the other.
    static func threadCPUPercent(from a: Sample, to b: Sample) -> Double {
        let wall = Double(b.at &- a.at) / 1e9
        guard wall > 0, b.cpuNanoseconds >= a.cpuNanoseconds else { return cpuPercent(from: a, to: b) }
        return Double(b.cpuNanoseconds - a.cpuNanoseconds) / 1e9 / wall * 100
    }
}
