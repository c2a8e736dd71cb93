import CMicroHTTPD
import Glibc
import Synchronization

/// One `/map/events` client (server-sent events): the newest map as a `map` event whenever the
/// locator publishes one, and a comment every `keepAlive` polls so a quiet stream is not taken
/// for a dead one. Read only on its connection's own thread (the daemon runs a thread per
/// connection while the map is on), so waiting for news holds up no other request.
final class MapEventStream: Sendable {
    private let board: MetricsBoard
    private let gate: Gate
    /// What is left to send of the current event, and the version it carries.
    private let state = Mutex<(pending: [UInt8], offset: Int, sent: Int)>(([], 0, 0))
    /// Polls of the board between two sends at most (each `pollMicroseconds`).
    static let keepAlive = 20
    static let pollMicroseconds: UInt32 = 100_000

    /// Streams open at once, and whether the server is stopping (every stream then ends).
    final class Gate: Sendable {
        let limit: Int
        private let open = Atomic<Int>(0)
        private let stopped = Atomic<Bool>(false)
        init(limit: Int) { self.limit = limit }

        /// Takes a place for a new stream; false when all `limit` are taken.
        func enter() -> Bool {
            if open.wrappingAdd(1, ordering: .relaxed).newValue <= limit { return true }
            open.wrappingSubtract(1, ordering: .relaxed)
            return false
        }
        func leave() { open.wrappingSubtract(1, ordering: .relaxed) }
        func stop() { stopped.store(true, ordering: .relaxed) }
        var isStopping: Bool { stopped.load(ordering: .relaxed) }
    }

    /// A stream holding one of `gate`'s places, released when libmicrohttpd frees it.
    init(board: MetricsBoard, gate: Gate) {
        self.board = board
        self.gate = gate
    }

    deinit { gate.leave() }

    /// libmicrohttpd's content reader: up to `max` bytes of the stream into `buffer`, waiting for
    /// news when everything was sent; the end of the stream once the server stops.
    func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        var polls = 0
        while state.withLock({ $0.offset == $0.pending.count }) {
            if gate.isStopping { return b2m_mhd_end_of_stream }
            let sent = state.withLock { $0.sent }
            if let map = board.map, map.version != sent {
                state.withLock {
                    $0 = (Array("event: map\ndata: ".utf8) + map.json + Array("\n\n".utf8), 0, map.version)
                }
            } else if polls >= Self.keepAlive {
                state.withLock { $0 = (Array(": keep-alive\n\n".utf8), 0, $0.sent) }
            } else {
                usleep(Self.pollMicroseconds)
                polls += 1
            }
        }
        return state.withLock { s in
            let count = min(max, s.pending.count - s.offset)
            s.pending.withUnsafeBytes { raw in
                UnsafeMutableRawPointer(buffer).copyMemory(from: raw.baseAddress! + s.offset, byteCount: count)
            }
            s.offset += count
            return count
        }
    }
}
