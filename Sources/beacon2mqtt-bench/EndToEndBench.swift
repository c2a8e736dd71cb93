/// Placeholder.
struct EndToEndBench {
    var options: BenchOptions
    var scratch: ScratchDirectory? = nil
    func run(into report: inout BenchReport) throws(BenchFailure) { throw BenchFailure("not yet implemented") }
}
