import Glibc
import MetricsContract
import Platform

/// The standard `process_*` figures of this process, read from procfs (proc(5)) at scrape time:
/// /proc/self/stat (CPU ticks, start tick, virtual size, resident pages), /proc/stat (boot time)
/// and /proc/self/fd (open descriptors). Nil when procfs is missing or unreadable.
package enum ProcessSampler {
    package static func sample() -> ProcessMetrics? {
        guard let stat = try? FileSystem.text("/proc/self/stat"), let close = stat.lastIndex(of: ")"),
            let boot = bootTime()
        else { return nil }
        // Fields after the command name, from field 3 (state) on: index = field number − 3.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 21, let utime = Double(fields[11]), let stime = Double(fields[12]),
            let start = Double(fields[19]), let virtual = Int(fields[20]), let pages = Int(fields[21])
        else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        return ProcessMetrics(
            residentMemoryBytes: pages * sysconf(Int32(_SC_PAGESIZE)), virtualMemoryBytes: virtual,
            cpuSeconds: (utime + stime) / ticks, startTimeSeconds: boot + start / ticks, openFDs: openDescriptors(),
            maxFDs: Int(limit.rlim_cur))
    }

    /// `btime`: the boot time, seconds since the epoch.
    private static func bootTime() -> Double? {
        guard let text = try? FileSystem.text("/proc/stat") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst(6))
        }
        return nil
    }

    /// Entries of /proc/self/fd, less `.`, `..` and the directory's own descriptor.
    private static func openDescriptors() -> Int {
        guard let directory = opendir("/proc/self/fd") else { return 0 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { $0.first }
            if name != UInt8(ascii: ".") { count += 1 }
        }
        return max(count - 1, 0)
    }
}
