import Glibc
import Platform

/// The file pages start-up maps and the steady state never reads again: the dynamic loader's
/// relocation and symbol tables, the libraries' initialisation (OpenSSL's alone is 0.8 MiB), the
/// configuration parser. With the kernel's fault-around each touched page maps its 64 KiB window,
/// so they stayed in the resident set for the process's life (4 MiB of 10.2 at 3,000 reports/s;
/// docs/performance.md, "Memory"). Unmapped, they stay in the page cache, reclaimable; what the
/// process reads again comes back by a minor fault.
enum StartupPages {
    /// After `delay` seconds, on a thread of its own, drops this process's mappings of every
    /// read-only file-backed region that holds no private (anonymous) page.
    ///
    /// Invariant that makes `MADV_DONTNEED` lossless here: a private file mapping without write
    /// permission and without anonymous pages holds nothing but the file's contents, so the next
    /// read maps the same bytes again. The regions are read from `/proc/self/smaps` and advised one
    /// by one, so none may change in between: the process unmaps no file mapping (no `dlclose`, no
    /// `munmap` of files anywhere in it), and makes none writable (the only library it loads later,
    /// libmicrohttpd, carries no text relocations; Debian's lintian refuses them).
    ///
    /// The thread blocks every signal: it starts before `run` blocks SIGTERM and the others for its
    /// signal thread, and a signal it took would end the process without the agent's shutdown.
    static func release(after delay: UInt32) {
        var all = sigset_t()
        var previous = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_SETMASK, &all, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        PosixThread.start(name: "startup-pages") {
            sleep(delay)
            for region in readOnlyFileRegions() {
                _ = madvise(UnsafeMutableRawPointer(bitPattern: region.lowerBound), region.count, MADV_DONTNEED)
            }
        }
    }

    /// The read-only, file-backed mappings in `/proc/self/smaps` with no anonymous page.
    static func readOnlyFileRegions() -> [Range<UInt>] {
        guard let smaps = fopen("/proc/self/smaps", "r") else { return [] }
        defer { fclose(smaps) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        var regions: [Range<UInt>] = []
        var candidate: Range<UInt>?
        while getline(&line, &capacity, smaps) > 0, let line {
            // A mapping's header: "start-end perms offset dev inode [path]"; then its "Key: value kB" lines.
            let fields = String(cString: line).split(separator: " ")
            if fields.count >= 5, let dash = fields[0].firstIndex(of: "-"), fields[1].count == 4,
                let start = UInt(fields[0][..<dash], radix: 16),
                let end = UInt(fields[0][fields[0].index(after: dash)...], radix: 16)
            {
                let readOnly = !fields[1].contains("w")
                let fileBacked = fields[4] != "0" && fields[4] != "0\n"
                candidate = readOnly && fileBacked && start < end ? start..<end : nil
            } else if fields.first == "Anonymous:", let region = candidate {
                if fields.count >= 2, fields[1] == "0" { regions.append(region) }
                candidate = nil
            }
        }
        return regions
    }
}
