import Glibc
import Platform
import Vocabulary

/// `beacon2mqtt manpage`: prints beacon2mqtt(1) in roff, built from the CLI's own help text.
/// scripts/build-deb.sh installs its output as /usr/share/man/man1/beacon2mqtt.1.gz.
struct ManPageCommand: Command {
    static let help = CommandHelp(
        name: "manpage",
        abstract: "Print the beacon2mqtt(1) manual page (roff).",
        usage: "beacon2mqtt manpage [--date <yyyy-mm-dd>]",
        discussion: "View it with: beacon2mqtt manpage | man -l -",
        options: [
            .init(
                "--date <yyyy-mm-dd>",
                "Date in the page header. Default: SOURCE_DATE_EPOCH if set (reproducible builds), else today.")
        ])

    let date: String?

    init(_ arguments: inout Arguments) throws(UsageError) {
        date = try arguments.option("--date")
        try arguments.finish()
        if let date, date.wholeMatch(of: /[0-9]{4}-[0-9]{2}-[0-9]{2}/) == nil {
            throw UsageError("'--date' needs yyyy-mm-dd, not '\(date)'")
        }
    }

    func run(_ context: CommandContext) -> ExitCode {
        context.out(ManPage.render(date: date ?? Self.defaultDate(context.environment)))
        return .success
    }

    /// SOURCE_DATE_EPOCH (reproducible-builds.org) when set, else now; as a UTC date.
    static func defaultDate(_ environment: [String: String]) -> String {
        let seconds =
            environment["SOURCE_DATE_EPOCH"].flatMap(Double.init) ?? Double(WallClock.now().microseconds) / 1e6
        var time = time_t(seconds.rounded(.down))
        var utc = tm()
        gmtime_r(&time, &utc)
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(utc.tm_year + 1900)-\(two(utc.tm_mon + 1))-\(two(utc.tm_mday))"
    }
}
