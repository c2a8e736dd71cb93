import BeaconCore
import Testing

@Suite struct FIFOQueueTests {
    @Test func popsInOrderAndKeepsOnlyWhatMatches() {
        var q = FIFOQueue<Int>()
        q.push(contentsOf: 1...6)
        #expect(q.pop() == 1)
        q.keep { $0.isMultiple(of: 2) }
        #expect(q.count == 3)
        var popped: [Int] = []
        while let v = q.pop() { popped.append(v) }
        #expect(popped == [2, 4, 6])
        #expect(q.isEmpty && q.first == nil)
    }

    /// A producer that always stays one step ahead never lets the queue run empty; the storage must
    /// still stay bounded by what is queued, not by everything ever pushed.
    @Test func aQueueThatNeverRunsEmptyReleasesWhatWasPopped() {
        var q = FIFOQueue<[UInt8]>()
        q.push([0])
        for n in 1...100_000 {
            q.push([UInt8(truncatingIfNeeded: n)])
            #expect(q.pop() == [UInt8(truncatingIfNeeded: n - 1)])
        }
        #expect(q.count == 1)
        #expect(q.storedCount <= 2 * 64 + 2)
    }

    /// A burst's storage is released once the queue runs empty; a small one's is kept for the next.
    @Test func runEmptyItKeepsOnlyASmallStorage() {
        var q = FIFOQueue<Int>()
        q.push(contentsOf: 0..<3_000)
        while q.pop() != nil {}
        #expect(q.storedCapacity * MemoryLayout<Int>.stride <= FIFOQueue<Int>.keptBytes)
        q.push(contentsOf: 0..<100)
        while q.pop() != nil {}
        #expect(q.storedCapacity >= 100)
    }
}
