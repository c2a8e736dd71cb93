/// A recording's ground truth: where the tag was, sample by sample, in time order.
package struct TruthTrack: Sendable {
    package struct Sample: Sendable, Equatable {
        /// Seconds (any origin shared with the ticks scored against it).
        package var time: Double
        package var x: Double
        package var y: Double
        package init(time: Double, x: Double, y: Double) {
            self.time = time
            self.x = x
            self.y = y
        }
    }

    package let samples: [Sample]

    /// `samples` must be sorted by time and not empty.
    package init(_ samples: [Sample]) {
        precondition(!samples.isEmpty, "a truth track needs samples")
        self.samples = samples
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
    /// position at `time` (the sample nearest it). Not at rest before `window` of track exists.
    package func isAtRest(at time: Double, window: Double = 5, radius: Double = 0.2) -> Bool {
        guard time - window >= samples[0].time else { return false }
        let here = nearest(to: time)
        var i = lastIndex(atOrBefore: time)
        while i >= 0, samples[i].time >= time - window {
            let dx = samples[i].x - here.x
            let dy = samples[i].y - here.y
            if (dx * dx + dy * dy).squareRoot() >= radius { return false }
            i -= 1
        }
        return true
    }
}
