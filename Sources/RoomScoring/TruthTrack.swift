/// A recording's ground truth: where the tag was, sample by sample, in time order.
package struct TruthTrack: Sendable {
    package struct Sample: Sendable, Equatable {
        /// Seconds (any origin shared with the ticks scored against it).
        package var time: Double
        package var x: Double
        package var y: Double
        /// The floor the tag was on, for a recording of several floors (nil: the site's one floor).
        package var floor: String?
        package init(time: Double, x: Double, y: Double, floor: String? = nil) {
            self.time = time
            self.x = x
            self.y = y
            self.floor = floor
        }
    }

    package let samples: [Sample]

    /// `samples` must be sorted by time and not empty.
    package init(_ samples: [Sample]) {
        precondition(!samples.isEmpty, "a truth track needs samples")
        self.samples = samples
    }

    /// The track of rows stamped `times` (sorted) whose positions may be missing (the truth system
    /// lost the tag for a moment): a missing one is interpolated in time between the rows on either
    /// side that have one, or is the nearest one's at either end, on the floor of the one before it.
    /// Nil when no row has a position.
    package init?(times: [Double], positions: [(x: Double, y: Double, floor: String?)?]) {
        precondition(times.count == positions.count, "a position, or none, per time")
        let known = positions.indices.filter { positions[$0] != nil }
        guard let first = known.first, let last = known.last else { return nil }
        var samples: [Sample] = []
        samples.reserveCapacity(times.count)
        var next = 0  // index into `known` of the first known row at or after i
        for i in times.indices {
            while known[next] < i, next + 1 < known.count { next += 1 }
            if let p = positions[i] {
                samples.append(Sample(time: times[i], x: p.x, y: p.y, floor: p.floor))
                continue
            }
            let (a, b) = i < first ? (first, first) : i > last ? (last, last) : (known[next - 1], known[next])
            let (pa, pb) = (positions[a]!, positions[b]!)
            let span = times[b] - times[a]
            let f = span > 0 ? (times[i] - times[a]) / span : 0
            samples.append(
                Sample(time: times[i], x: pa.x + f * (pb.x - pa.x), y: pa.y + f * (pb.y - pa.y), floor: pa.floor))
        }
        self.init(samples)
    }

    /// Index of the last sample at or before `time` (0 when all are later).
    private func lastIndex(atOrBefore time: Double) -> Int {
        var low = 0
        var high = samples.count - 1
        if samples[0].time > time { return 0 }
        while low < high {
            let mid = (low + high + 1) / 2
            if samples[mid].time <= time { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// The sample nearest in time (the earlier one on a tie).
    package func nearest(to time: Double) -> Sample {
        let i = lastIndex(atOrBefore: time)
        guard i + 1 < samples.count, samples[i].time <= time else { return samples[i] }
        return samples[i + 1].time - time < time - samples[i].time ? samples[i + 1] : samples[i]
    }

    /// At rest at `time`: every sample of the last `window` seconds lies within `radius` of the
    /// position at `time` (the sample nearest it), on its floor. Not at rest before `window` of track exists.
    package func isAtRest(at time: Double, window: Double = 5, radius: Double = 0.2) -> Bool {
        guard time - window >= samples[0].time else { return false }
        let here = nearest(to: time)
        var i = lastIndex(atOrBefore: time)
        while i >= 0, samples[i].time >= time - window {
            if samples[i].floor != here.floor { return false }
            let dx = samples[i].x - here.x
            let dy = samples[i].y - here.y
            if (dx * dx + dy * dy).squareRoot() >= radius { return false }
            i -= 1
        }
        return true
    }
}
