import BeaconCore
import Testing

@Suite struct TopicNameTests {
    @Test func acceptsOrdinaryLevels() {
        #expect(TopicName.problem(level: "kitchen-pi") == nil)
        #expect(TopicName.problem(level: "Büro 1") == nil)
        #expect(TopicName.problem(topic: "home/beacons") == nil)
    }

    @Test func rejectsWildcardsSeparatorsNulAndEmpty() {
        #expect(TopicName.problem(level: "") == "is empty")
        #expect(TopicName.problem(level: "a+b") != nil)
        #expect(TopicName.problem(level: "#") != nil)
        #expect(TopicName.problem(level: "a/b") != nil)
        #expect(TopicName.problem(level: "a\u{0}b") != nil)
    }

    @Test func rejectsBadBaseTopics() {
        #expect(TopicName.problem(topic: "home//beacons") == "level 2 is empty")
        #expect(TopicName.problem(topic: "beacons/") != nil)
        #expect(TopicName.problem(topic: "$SYS") != nil)
        #expect(TopicName.problem(topic: "a/+/b") != nil)
        #expect(TopicName.problem(topic: "") != nil)
    }
}
