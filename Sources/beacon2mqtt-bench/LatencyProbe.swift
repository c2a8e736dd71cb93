/// Report → enter latency: the pipeline and the real MQTT client in this process, paced at a
/// realistic rate, each new beacon's first report timed at ingest, and the counting subscriber
/// timing the arrival of its enter event. PENDING until Pipeline and MosquittoClient land.
struct LatencyProbe {
    var options: BenchOptions
    var scratch: ScratchDirectory

    func run(port: Int, into report: inout BenchReport) throws(BenchFailure) {
        throw BenchFailure("latency probe pending: needs Pipeline and MosquittoClient on main")
    }
}
