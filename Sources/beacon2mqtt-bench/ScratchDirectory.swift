import Foundation

/// A private temporary directory for generated captures, configs and logs; removed at exit
/// unless BENCH_KEEP_SCRATCH is set (to inspect a failing run).
final class ScratchDirectory {
    let root: String
    private var finished = false

    init() throws(BenchFailure) {
        let base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        var template = Array("\(base)/beacon2mqtt-bench.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw BenchFailure("cannot create a scratch directory in \(base)") }
        root = String(cString: made)
    }

    func path(_ name: String) -> String { "\(root)/\(name)" }

    func write(_ bytes: [UInt8], to name: String) throws(BenchFailure) -> String {
        let p = path(name)
        guard FileManager.default.createFile(atPath: p, contents: Data(bytes)) else {
            throw BenchFailure("cannot write \(p)")
        }
        return p
    }

    func write(_ text: String, to name: String) throws(BenchFailure) -> String {
        try write(Array(text.utf8), to: name)
    }

    deinit { finish() }

    /// Removes the directory (or says where it is kept). main.swift calls it before `exit`, which
    /// runs no deinit: every run used to leave its captures and plans in /tmp.
    func finish() {
        guard !finished else { return }
        finished = true
        if ProcessInfo.processInfo.environment["BENCH_KEEP_SCRATCH"] == nil {
            try? FileManager.default.removeItem(atPath: root)
        } else {
            Console.line("scratch kept: \(root)")
        }
    }
}
