import Foundation

/// Child processes for the sections that drive real programs (python, mosquitto, beacon2mqtt).
enum Subprocess {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Starts `executable` with `arguments`; stdout/stderr go to the given files (or /dev/null).
    static func spawn(
        _ executable: String, _ arguments: [String], stdout: String? = nil, stderr: String? = nil
    )
        throws(BenchFailure) -> Process
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = handle(stdout)
        process.standardError = handle(stderr)
        do { try process.run() } catch { throw BenchFailure("cannot start \(executable): \(error)") }
        return process
    }

    private static func handle(_ path: String?) -> FileHandle {
        guard let path else { return FileHandle.nullDevice }
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return FileHandle(forWritingAtPath: path) ?? FileHandle.nullDevice
    }

    /// Runs to completion with output captured in temporary files (no pipe can fill up and stall).
    static func run(
        _ executable: String, _ arguments: [String], in scratch: ScratchDirectory
    ) throws(BenchFailure)
        -> Output
    {
        let out = scratch.path("run-\(UUID().uuidString).out")
        let err = scratch.path("run-\(UUID().uuidString).err")
        let process = try spawn(executable, arguments, stdout: out, stderr: err)
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }

    /// Sends SIGTERM, then SIGKILL after `grace` seconds if it is still running.
    static func stop(_ process: Process, grace: Double = 3) {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = BenchClock.now() + UInt64(grace * 1e9)
        while process.isRunning, BenchClock.now() < deadline { BenchClock.sleep(0.01) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Resolves `name` on PATH (or returns it when it already contains a slash and exists).
    static func which(_ name: String) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") + ["/usr/sbin", "/sbin"] {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
