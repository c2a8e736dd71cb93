import Foundation

/// Where the package and its debug build are, for the tests that start the real binary or read the
/// repository's files.
enum PackagePaths {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The `beacon2mqtt` that `swift build --build-tests` built.
    static let binary = root.appendingPathComponent(".build/debug/beacon2mqtt").path
    /// The real captures and their expected outputs (Tests/Fixtures/captures).
    static let captures = root.appendingPathComponent("Tests/Fixtures/captures")

    /// Runs the binary with `arguments` to its end: its exit status and what it printed.
    static func run(_ arguments: [String]) throws -> (code: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self)
        )
    }
}
