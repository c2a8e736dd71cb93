import Glibc
import Vocabulary

/// The agent's logger: one line per lifecycle event on stderr, `key=value` metadata, levels from
/// `log_level`. Under systemd (stderr is the `JOURNAL_STREAM`) each line starts with the syslog priority in
/// angle brackets, `<3>` for errors, which journald turns into the entry's priority (sd-daemon(3),
/// "SD_ERR" prefixes). The sink is injectable so tests can read the lines.
///
/// Never pass secrets: nothing here redacts.
package struct Logger: Sendable {
    package typealias Sink = @Sendable (String) -> Void

    package var level: LogLevel
    /// Prefix lines with `<N>` for journald.
    package var journald: Bool
    private let sink: Sink

    package init(level: LogLevel, journald: Bool = false, sink: @escaping Sink) {
        self.level = level
        self.journald = journald
        self.sink = sink
    }

    /// Writes to the process's stderr, with journald prefixes when stderr is the journal stream.
    package static func standardError(level: LogLevel, environment: [String: String]) -> Logger {
        let writer = FileDescriptorWriter(fd: 2, bufferSize: 0)
        return Logger(level: level, journald: stderrIsJournal(environment)) { writer.write($0) }
    }

    /// systemd sets `JOURNAL_STREAM=<device>:<inode>` of the stream it connected; it only counts
    /// when stderr is still that stream (not redirected by a wrapper script), as sd-daemon(3) and
    /// systemd.exec(5) advise.
    static func stderrIsJournal(_ environment: [String: String]) -> Bool {
        guard let value = environment["JOURNAL_STREAM"] else { return false }
        var info = stat()
        guard fstat(2, &info) == 0 else { return false }
        return value == "\(info.st_dev):\(info.st_ino)"
    }

    /// Syslog priorities (RFC 5424 §6.2.1) as sd-daemon(3) lists them.
    static func priority(_ level: LogLevel) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    package func isEnabled(_ level: LogLevel) -> Bool { level >= self.level }

    package func log(
        _ level: LogLevel, _ message: @autoclosure () -> String, _ metadata: KeyValuePairs<String, String> = [:]
    ) {
        write(level, message(), metadata)
    }

    /// A line the agent core returned as a value.
    package func log(_ record: LogRecord) {
        write(record.level, record.message, record.fields.lazy.map { ($0.key, $0.value) })
    }

    private func write<Fields: Sequence<(key: String, value: String)>>(
        _ level: LogLevel, _ message: @autoclosure () -> String, _ metadata: Fields
    ) {
        guard isEnabled(level) else { return }
        var line = journald ? "<\(Self.priority(level))>" : ""
        line += journald ? "" : "\(level.rawValue): "
        line += message()
        for (key, value) in metadata {
            line += " \(key)=\(Self.quoted(value))"
        }
        sink(line + "\n")
    }

    package func debug(_ message: @autoclosure () -> String, _ metadata: KeyValuePairs<String, String> = [:]) {
        log(.debug, message(), metadata)
    }
    package func info(_ message: @autoclosure () -> String, _ metadata: KeyValuePairs<String, String> = [:]) {
        log(.info, message(), metadata)
    }
    package func notice(_ message: @autoclosure () -> String, _ metadata: KeyValuePairs<String, String> = [:]) {
        log(.notice, message(), metadata)
    }
    package func warning(_ message: @autoclosure () -> String, _ metadata: KeyValuePairs<String, String> = [:]) {
        log(.warning, message(), metadata)
    }
    package func error(_ message: @autoclosure () -> String, _ metadata: KeyValuePairs<String, String> = [:]) {
        log(.error, message(), metadata)
    }

    /// Values with spaces, quotes or `=` are double-quoted so lines stay machine-splittable.
    static func quoted(_ value: String) -> String {
        guard value.isEmpty || value.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" || $0 == "\n" }) else {
            return value
        }
        var quoted = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": quoted += "\\\\"
            case "\"": quoted += "\\\""
            case "\n": quoted += "\\n"
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}
