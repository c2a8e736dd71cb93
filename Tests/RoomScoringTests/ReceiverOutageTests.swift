import RoomScoring
import Testing

@Suite struct ReceiverOutageTests {
    typealias Reading = StrongestReceiver.Reading

    @Test func halfwayIsTheFirstWholeSecondAtOrAfterTheMiddle() {
        let outage = ReceiverOutage.halfway(receiver: 1, start: 100.2, end: 150.4, willAfter: 45)
        #expect(outage.at == 126 && outage.will == 171)
        #expect(ReceiverOutage.halfway(receiver: 1, start: 100, end: 150, willAfter: 0).will == 125)
    }

    @Test func theReceiverFallsSilentFromItsOutageTheOthersDoNot() {
        let outage = ReceiverOutage(receiver: 1, at: 10, will: 55)
        #expect(outage.keeps(receiver: 1, at: 9.9))
        #expect(!outage.keeps(receiver: 1, at: 10))
        #expect(!outage.keeps(receiver: 1, at: 30))
        #expect(outage.keeps(receiver: 0, at: 30))
        let readings = (0..<3).map { r in (0..<20).map { Reading(time: Double($0), rssi: Double(-50 - r)) } }
        let left = outage.applied(to: readings)
        #expect(left[0] == readings[0] && left[2] == readings[2])
        #expect(left[1] == Array(readings[1].prefix(10)))
        // The strongest receiver (0) gone, its 4 s median lingers while its last reading is in the window, then 1 owns.
        var engine = StrongestReceiver(
            rule: .median, readings: ReceiverOutage(receiver: 0, at: 10, will: 55).applied(to: readings))
        #expect([12, 13, 14].map { engine.owner(at: Double($0)) } == [0, 1, 1])
    }
}
