/// Report → enter latency, measured in process with `Pipeline` and the agent's `MosquittoClient`.
/// PENDING until MosquittoClient lands on main.
struct LatencyProbe {
    static let name = "latency report → enter received"
    var options: BenchOptions
    var scratch: ScratchDirectory

    func run(port: Int, into report: inout BenchReport) throws(BenchFailure) {
        throw BenchFailure("latency probe pending: needs MosquittoClient on main")
    }
}
