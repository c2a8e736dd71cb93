import BeaconCore
import BeaconWire
import MessageContract
import TestFixtures
import Testing
import Vocabulary

/// The teach-in: a walk hall → office → hall past gateway A (hall) and B (office), where B reads
/// `bias` dB hot, so it seems nearer than A in the hall's far corner.
struct SiteSurveyTests {
    static let beaconTopic = "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/1"

    /// Proximity messages a second apart: in the hall A hears −60 and B −66 + bias; in the office
    /// the other way round. The marks are the true rooms' entries.
    static func walk(bias: Double) -> (messages: [(topic: String, payload: String)], marks: [SiteSurvey.Mark]) {
        walk { _, inHall in [("A", "hall", inHall ? -60.0 : -70), ("B", "office", (inHall ? -66.0 : -58) + bias)] }
    }

    /// The walk with each second's readings, (gateway, its room, rssi_filtered), given the second
    /// and whether the beacon is in the hall then, of a beacon advertising `power` at 1 m.
    static func walk(
        power: Int = -59, _ readings: (Int, Bool) -> [(String, String, Double)]
    ) -> (messages: [(topic: String, payload: String)], marks: [SiteSurvey.Mark]) {
        var messages: [(topic: String, payload: String)] = []
        let rooms = [(0, "hall"), (60, "office"), (120, "hall")]
        for second in 0..<180 {
            let inHall = second < 60 || second >= 120
            for (gw, room, rssi) in readings(second, inHall) {
                let payload =
                    #"{"accuracy":2.0,"rssi_filtered":\#(rssi),"measured_power":\#(power),"floor":"1","room":"\#(room)","#
                    + #""timestamp":"\#(Fixtures.at(Double(second) + 0.1).rfc3339)"}"#
                messages.append(("\(beaconTopic)/\(gw)/proximity", payload))
            }
        }
        messages.append(("beacons/gateways/A/status", "online"))
        return (messages, rooms.map { .init(time: Fixtures.at(Double($0.0)), room: $0.1) })
    }

    @Test func anUnbiasedWalkScoresMostSecondsRightAndFitsNoOffset() throws {
        let (messages, marks) = Self.walk(bias: 0)
        let beacon = try #require(SiteSurvey.busiestBeacon(messages.map(\.topic), baseTopic: "beacons"))
        var survey = SiteSurvey(baseTopic: "beacons", beacon: beacon)
        #expect(survey.add(messages: messages, marks: marks) == 360)
        #expect(survey.gateways == ["A", "B"])
        let score = survey.score(LocatorSettings())
        #expect(score.seconds == 180)
        #expect(score.percent > 90)
        #expect(score.changes == 2)
        #expect(survey.fitOffsets(LocatorSettings()).isEmpty)
    }

    @Test func aHotGatewayIsCorrectedAndTheSuggestionScoresBetter() throws {
        let (messages, marks) = Self.walk(bias: 9)
        var survey = SiteSurvey(baseTopic: "beacons", beacon: Fixtures.beacon(1))
        survey.add(messages: messages, marks: marks)
        let before = survey.score(LocatorSettings())
        #expect(before.percent < 40)
        let offsets = survey.fitOffsets(LocatorSettings())
        var fitted = LocatorSettings()
        fitted.rssiOffsets = offsets
        let after = survey.score(fitted)
        #expect(after.percent > 90)
        // Only the difference between A and B matters: B comes down against A by more than the 3 dB
        // the office's readings leave without the bias.
        #expect((offsets["B"] ?? 0) - (offsets["A"] ?? 0) < -3)
    }

    @Test func marksStartTheScoreAndOtherBeaconsAreIgnored() {
        let (messages, marks) = Self.walk(bias: 0)
        var survey = SiteSurvey(baseTopic: "beacons", beacon: Fixtures.beacon(2))
        #expect(survey.add(messages: messages, marks: marks) == 0)
        #expect(survey.score(LocatorSettings()).right == 0)
    }

    /// Gateway B stands in the office by the hall's wall: it hears the beacon in the hall 3 dB
    /// better than A, the hall's own gateway, and in the office only a little better still. The
    /// gateways' rooms name the office all along; the fingerprints tell the rooms apart by how much
    /// A and B each hear in them.
    @Test func fingerprintsTellApartRoomsThatTheGatewaysRoomsConfuse() throws {
        let (messages, marks) = Self.wallWalk()
        var survey = SiteSurvey(baseTopic: "beacons", beacon: Fixtures.beacon(1))
        survey.add(messages: messages, marks: marks)
        #expect(survey.score(LocatorSettings()).percent < 50)
        let fingerprints = try #require(survey.fingerprints(LocatorSettings()))
        let hall = try #require(fingerprints.rooms.first { $0.place == .init(floor: "1", room: "hall") })
        // The hall's seconds from its marks, each with the newest reading: A at −60 ± 1, and a few
        // seconds of the office's −66 after the walk came back (the locator's readings stay fresh).
        #expect(abs(hall.levels["A"]!.mean + 60) < 1, "\(hall.levels)")
        #expect(fingerprints.rooms.map(\.power) == [-59, -59])
        var settings = LocatorSettings()
        settings.belief.fingerprints = fingerprints
        let score = survey.score(settings)
        #expect(score.percent > 90, "\(score)")
        #expect(score.changes == 2)
    }

    /// The walk by the wall: B, the office's gateway, hears the hall better than A does. Each
    /// reading `weaker` dB down, as a beacon advertising `power` reads.
    static func wallWalk(
        power: Int = -59, weaker: Double = 0
    ) -> (
        messages: [(topic: String, payload: String)], marks: [SiteSurvey.Mark]
    ) {
        walk(power: power) { second, inHall in
            [("A", "hall", inHall ? -60.0 : -66), ("B", "office", inHall ? -57.0 : -56)].map {
                ($0.0, $0.1, $0.2 - weaker + (second % 2 == 0 ? 1 : -1))
            }
        }
    }

    /// Rooms taught with a phone (−59 dBm at 1 m) and a tag 8 dB weaker: its readings sit 8 dB
    /// below every level, which would make the whole site a worse fit to each room alike and
    /// the rooms a coin toss between A's and B's; its advertised power says how much weaker it is.
    @Test func aBeaconOfAnotherPowerIsWeighedAsTheTaughtOne() throws {
        let (messages, marks) = Self.wallWalk()
        var taught = SiteSurvey(baseTopic: "beacons", beacon: Fixtures.beacon(1))
        taught.add(messages: messages, marks: marks)
        var settings = LocatorSettings()
        settings.belief.fingerprints = try #require(taught.fingerprints(LocatorSettings()))
        let (tagMessages, tagMarks) = Self.wallWalk(power: -67, weaker: 8)
        var tag = SiteSurvey(baseTopic: "beacons", beacon: Fixtures.beacon(1))
        tag.add(messages: tagMessages, marks: tagMarks)
        let score = tag.score(settings)
        #expect(score.percent > 90, "\(score)")
        #expect(score.changes == 2)
        // Without the taught power, the tag's readings are taken as they are.
        var bare = settings
        bare.belief.fingerprints = RoomFingerprints(
            rooms: settings.belief.fingerprints!.rooms.map { .init(place: $0.place, levels: $0.levels) })
        #expect(tag.score(bare).percent < score.percent - 20, "\(tag.score(bare))")
    }
}
