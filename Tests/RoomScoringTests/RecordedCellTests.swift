import RoomScoring
import Testing

@Suite struct RecordedCellTests {
    @Test(arguments: [
        "", " ", "NaN", "nan", "-nan", "NA", "n/a", "null", "None", "-", "\"\"", "\"NaN\"", "inf", "-inf",
    ])
    func wordsForNothingAndNonFiniteNumbersAreMissing(_ field: String) {
        #expect(RecordedCell(Substring(field), range: RecordedCell.rssiRange) == .missing)
    }

    @Test func numbersAreReadWithSpacesAndQuotesTakenOff() {
        #expect(RecordedCell("-67.5") == .value(-67.5))
        #expect(RecordedCell(" -67 ") == .value(-67))
        #expect(RecordedCell("\"-67\"") == .value(-67))
        #expect(RecordedCell("1.627e9") == .value(1.627e9))
    }

    @Test func aSiteSentinelIsMissingAndAnRSSIOutOfItsRangeIsSaidSo() {
        #expect(RecordedCell("100", notHeard: [100], range: RecordedCell.rssiRange) == .missing)
        #expect(RecordedCell("-130", notHeard: [100], range: RecordedCell.rssiRange) == .outOfRange(-130))
        #expect(RecordedCell("-110", notHeard: [100], range: RecordedCell.rssiRange) == .value(-110))
        #expect(RecordedCell("100", range: RecordedCell.rssiRange) == .outOfRange(100))
        #expect(RecordedCell("20", range: RecordedCell.rssiRange) == .value(20))
        #expect(RecordedCell("-127", range: RecordedCell.rssiRange) == .value(-127))
        // Without a range, any finite number is a value (a coordinate, a time).
        #expect(RecordedCell("100") == .value(100))
    }

    @Test func textThatIsNoNumberIsUnreadable() {
        #expect(RecordedCell("abc") == .unreadable)
        #expect(RecordedCell("-67dBm") == .unreadable)
        #expect(RecordedCell("1,5") == .unreadable)
    }

    @Test func unquotedTakesOffOnlyTheSurroundingSpacesAndOnePairOfQuotes() {
        #expect(RecordedCell.unquoted(" \"rssi_1\" ") == "rssi_1")
        #expect(RecordedCell.unquoted("rssi \"1\"") == "rssi \"1\"")
        #expect(RecordedCell.unquoted("\"") == "\"")
    }
}
