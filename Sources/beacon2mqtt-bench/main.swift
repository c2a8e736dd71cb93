import Foundation

// beacon2mqtt-bench: the numbers behind docs/performance.md.
// Always run the release build: `swift build -c release --product beacon2mqtt-bench`, or `make bench`.

signal(SIGPIPE, SIG_IGN)

// The campus section's child: every gateway of a floor plan in this one process (CampusHost).
if CommandLine.arguments.dropFirst().first == "campus-gateways" {
    exit(CampusHost.main(Array(CommandLine.arguments.dropFirst(2))))
}

let options: BenchOptions
switch BenchOptions.parse(Array(CommandLine.arguments.dropFirst())) {
case .success(let parsed): options = parsed
case .failure(let error):
    if !error.message.isEmpty { FileHandle.standardError.write(Data("error: \(error.message)\n".utf8)) }
    Console.line(BenchOptions.usage)
    exit(error.message.isEmpty ? 0 : 64)
}

#if DEBUG
    Console.line("warning: this is a debug build; numbers are meaningless (use -c release)")
#endif
Console.line("beacon2mqtt-bench on \(BenchReport.machine())")
Console.line("sections: \(options.sections.joined(separator: " ")); median of \(options.repetitions) repetitions")
Console.line(BenchReport.header())

var report = BenchReport()
var decoded: [DecodeBench.Measurement] = []
let scratch: ScratchDirectory
do { scratch = try ScratchDirectory() } catch {
    Console.line("error: \(error)")
    exit(1)
}

for section in options.sections {
    do throws(BenchFailure) {
        switch section {
        case "decode":
            decoded = try DecodeBench(options: options).run(into: &report)
        case "peer":
            if decoded.isEmpty {
                var silent = BenchReport()
                silent.echo = false
                decoded = try DecodeBench(options: options).run(into: &silent)
            }
            try PeerBench(options: options).run(swift: decoded, scratch: scratch, into: &report)
        case "pipeline":
            try PipelineBench(options: options).run(into: &report)
        case "json":
            try JSONBench(options: options).run(into: &report)
        case "locator":
            try LocatorBench(options: options).run(into: &report)
        case "locator-broker":
            try LocatorBrokerBench(options: options, scratch: scratch).run(into: &report)
        case "messages":
            try MessageRateBench(options: options).run(into: &report)
        case "irk":
            try IRKBench(options: options).run(into: &report)
        case "e2e":
            try EndToEndBench(options: options, scratch: scratch).run(into: &report)
        case "metrics":
            try MetricsBench(options: options, scratch: scratch).run(into: &report)
        case "instructions":
            try InstructionsBench(options: options, scratch: scratch).run(into: &report)
        case "campus":
            try CampusBench(options: options, scratch: scratch).run(into: &report)
        case "location":
            try LocationBench(options: options, scratch: scratch).run(into: &report)
        case "map":
            try MapBench(options: options).run(into: &report)
        case "footprint":
            try FootprintBench(options: options, scratch: scratch).run(into: &report)
        default:
            break
        }
    } catch {
        report.fail(section: section, error.description)
    }
}

do {
    let written = try report.write(to: options.resultsDirectory, sections: options.sections)
    Console.line("results: \(written.joined(separator: " "))")
} catch {
    Console.line("error: cannot write results: \(error)")
    scratch.finish()
    exit(1)
}
scratch.finish()
exit(report.failures.isEmpty ? 0 : 2)
