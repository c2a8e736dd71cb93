import BeaconConfig
import BeaconCore
import BeaconWire
import MessageContract
import Platform
import Settings
import Vocabulary

/// `beacon2mqtt survey`: the teach-in. Scores the locator on walks whose rooms were marked, fits
/// each gateway's `locator.rssi_offset` and the rooms' `locator.fingerprints` on them (`SiteSurvey`)
/// and prints the accuracy before and after and the configuration it suggests. `--type-marks`
/// stamps the rooms typed during a walk.
struct SurveyCommand: Command {
    static let help = CommandHelp(
        name: "survey",
        abstract:
            "Fit each gateway's rssi_offset and each room's fingerprint on walks with marked rooms; print the accuracy and the configuration.",
        usage:
            "beacon2mqtt survey [--config <file>] [--beacon <id>] <messages> <marks> [<messages> <marks> …] | survey --type-marks",
        discussion: """
            Each walk is a pair of files: the gateways' messages recorded during it (mosquitto_sub -v lines,
            "<topic> <payload>") and its marks, one "<time> <room>" line per room entered
            (RFC 3339 or Unix seconds; # starts a comment). Every second from a walk's first mark is scored:
            the locator, replayed on the messages' own clock, against the room marked last. Prints rooms right
            with the configuration's locator settings, the offsets fitted on all walks, rooms right with them,
            then with the room fingerprints the walks measured (what each gateway published in each room), and
            the locator section to add (rssi_offset, fingerprints). A point mark, "<time> @ <x> <y> [<floor>]",
            says the beacon was held still there (metres on locator.site_plan) until the next mark: it scores as
            the plan's room there, and each such point is printed as a point of the plan's survey section (each
            gateway's median rssi_filtered from 3 s after the mark). --type-marks reads room names (or "@ x y") typed
            on stdin as they are entered and writes each as a mark stamped with the wall clock, for a walk
            recorded live.
            Exit codes: 0 done, 64 usage, 65 a malformed marks line, 66 a file not readable,
            78 configuration error.
            """,
        arguments: [
            .init("<messages>", "A walk's recorded gateway messages."),
            .init("<marks>", "The same walk's room marks."),
        ],
        options: [
            .init(
                "--config <file>",
                "Configuration (mqtt.base_topic, locator, ranging.distance). Default: built-in defaults."),
            .init(
                "--beacon <id>",
                "The walked beacon as in its topics (<uuid>/<major>/<minor>). Default: the one heard most."),
            .init("--type-marks", "Write the rooms typed on stdin as marks, stamped now, to stdout."),
        ])

    let configPath: String?
    let beaconText: String?
    let typing: Bool
    let walks: [(messages: String, marks: String)]

    init(_ arguments: inout Arguments) throws(UsageError) {
        configPath = try arguments.option("--config")
        beaconText = try arguments.option("--beacon")
        typing = arguments.flag("--type-marks")
        let files = try arguments.positionals()
        if typing {
            guard files.isEmpty else { throw UsageError("--type-marks takes no files") }
        } else {
            guard !files.isEmpty, files.count % 2 == 0 else {
                throw UsageError("expected pairs of files: <messages> <marks>")
            }
        }
        walks = stride(from: 0, to: files.count, by: 2).map { (files[$0], files[$0 + 1]) }
    }

    func run(_ context: CommandContext) -> ExitCode {
        if typing { return typeMarks(context) }
        guard let config = context.configuration(at: configPath) else { return .config }
        let base = config.mqtt.baseTopic
        var inputs: [(messages: [(topic: String, payload: String)], marks: [SiteSurvey.Mark])] = []
        for walk in walks {
            guard let text = read(walk.messages, context), let marksText = read(walk.marks, context) else {
                return .noInput
            }
            let marks: [SiteSurvey.Mark]
            do throws(UsageError) {
                marks = try Self.marks(marksText, file: walk.marks, plan: config.locator.positions.plan)
            } catch {
                context.err("\(error.message)\n")
                return .dataError
            }
            inputs.append((Self.messages(text), marks))
        }
        var beacon: BeaconIdentity?
        if let beaconText {
            guard case .beacon(let b, _, _)? = TopicTree(base: base).parse("\(base)/\(beaconText)/g/proximity") else {
                context.err("'--beacon' is not a beacon's topic levels: '\(beaconText)'\n")
                return .usage
            }
            beacon = b
        } else {
            beacon = SiteSurvey.busiestBeacon(inputs.flatMap { $0.messages.map(\.topic) }, baseTopic: base)
        }
        guard let beacon else {
            context.err("no proximity message under '\(base)/' in the messages\n")
            return .dataError
        }
        var survey = SiteSurvey(baseTopic: base, beacon: beacon)
        for (n, input) in inputs.enumerated() {
            let kept = survey.add(messages: input.messages, marks: input.marks)
            context.out(
                "walk \(n + 1): \(walks[n].messages): \(kept) of \(input.messages.count) messages, "
                    + "\(input.marks.count) marks\n")
        }
        let settings = LocateCommand.settings(config)
        let before = survey.score(settings, distance: config.ranging.distance)
        let offsets = survey.fitOffsets(settings, distance: config.ranging.distance)
        var fitted = settings
        fitted.rssiOffsets = offsets
        let after = survey.score(fitted, distance: config.ranging.distance)
        let fingerprints = survey.fingerprints(fitted, distance: config.ranging.distance)
        let levels = TopicTree(base: base).location(beacon).dropFirst(base.count + 1).dropLast("/location".count)
        context.out("beacon: \(levels), gateways: \(survey.gateways.joined(separator: ", "))\n")
        context.out("before: \(Self.line(before))\nafter:  \(Self.line(after))\n")
        if let fingerprints {
            var taught = fitted
            taught.belief.fingerprints = fingerprints
            context.out("with fingerprints: \(Self.line(survey.score(taught, distance: config.ranging.distance)))\n")
        }
        context.out("suggested configuration:\nlocator:\n  rssi_offset:")
        if offsets.isEmpty {
            context.out(" {}\n")
        } else {
            context.out("\n")
            for g in offsets.keys.sorted() { context.out("    \(g): \(Int(offsets[g]!))\n") }
        }
        if let fingerprints { context.out(Self.fingerprintsSection(fingerprints)) }
        guard let plan = settings.positions.plan, inputs.contains(where: { $0.marks.contains { $0.point != nil } })
        else {
            return .success
        }
        let points = survey.points { plan.gateway($0)?.floor }
        context.out("survey points for the site plan (\(points.count); what the gateways published, no offset):\n")
        context.out(Self.surveySection(points))
        return .success
    }

    private static func line(_ s: SiteSurvey.Score) -> String {
        let percent = (s.percent * 10).rounded() / 10
        return "\(percent) % rooms right (\(s.right) of \(s.seconds) s), \(s.changes) room changes"
    }

    private func read(_ path: String, _ context: CommandContext) -> String? {
        do { return String(decoding: try FileSystem.contents(path), as: UTF8.self) } catch {
            context.err("\(path): cannot read: \(error)\n")
            return nil
        }
    }

    /// `mosquitto_sub -v` lines, `<topic> <payload>`; other lines are skipped.
    static func messages(_ text: String) -> [(topic: String, payload: String)] {
        var out: [(topic: String, payload: String)] = []
        for line in text.split(whereSeparator: \.isNewline) {
            guard let space = line.firstIndex(of: " ") else { continue }
            out.append((String(line[..<space]), String(line[line.index(after: space)...])))
        }
        return out
    }

    /// Throws the message naming the file and line of the first malformed one. A point mark,
    /// `<time> @ <x> <y> [<floor>]`, takes its room from `plan` (its only floor when none is named).
    static func marks(_ text: String, file: String, plan: SitePlan? = nil) throws(UsageError) -> [SiteSurvey.Mark] {
        var marks: [SiteSurvey.Mark] = []
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let fields = line.split(separator: " ", maxSplits: 1).map { $0.trimmingSpaces }
            guard let first = fields.first, !first.isEmpty else { continue }
            guard fields.count == 2, !fields[1].isEmpty,
                let time = RetainedAttributes.timestamp(rfc3339: first) ?? Double(first).map(Timestamp.seconds)
            else {
                throw UsageError(
                    "\(file):\(n + 1): a mark is '<RFC 3339 time or Unix seconds> <room>' or '<time> @ <x> <y> [<floor>]', "
                        + "not '\(raw)'")
            }
            guard fields[1].hasPrefix("@") else {
                marks.append(.init(time: time, room: fields[1]))
                continue
            }
            marks.append(try pointMark(fields[1].dropFirst(), at: time, plan: plan, line: "\(file):\(n + 1)"))
        }
        guard !marks.isEmpty else { throw UsageError("\(file): no marks") }
        return marks
    }

    /// `<x> <y> [<floor>]` of a point mark, in a room of the plan.
    private static func pointMark(
        _ text: Substring, at time: Timestamp, plan: SitePlan?, line: String
    ) throws(UsageError) -> SiteSurvey.Mark {
        let words = text.split(separator: " ", maxSplits: 2).map { $0.trimmingSpaces }
        guard words.count >= 2, let x = Double(words[0]), let y = Double(words[1]), x.isFinite, y.isFinite else {
            throw UsageError("\(line): a point mark is '<time> @ <x> <y> [<floor>]' (metres on the plan)")
        }
        guard let plan else {
            throw UsageError("\(line): a point mark needs the site plan (locator.site_plan in --config)")
        }
        let floors = plan.floors
        guard let floor = words.count > 2 ? words[2] : floors.count == 1 ? floors[0] : nil else {
            throw UsageError("\(line): the plan has several floors; name the point's: '@ <x> <y> <floor>'")
        }
        let point = SitePlan.Point(x: x, y: y)
        guard let room = plan.room(at: point, floor: floor) else {
            throw UsageError("\(line): (\(words[0]), \(words[1])) lies in no room of floor \(floor) on the plan")
        }
        return .init(time: time, room: room.name, floor: floor, point: point)
    }

    /// The `survey:` section for the site plan: one flow mapping a point.
    static func surveySection(_ points: [SitePlan.SurveyPoint]) -> String {
        var out = "survey:\n"
        for p in points {
            let rssi = p.rssi.keys.sorted().map {
                "\(YAMLText.quoted($0)): \(JSONWriter.format(p.rssi[$0]!, decimals: 1))"
            }
            out +=
                "  - {floor: \(YAMLText.quoted(p.floor)), x: \(JSONWriter.format(p.point.x, decimals: 2)), "
                + "y: \(JSONWriter.format(p.point.y, decimals: 2)), power: \(JSONWriter.format(p.power, decimals: 0)), "
                + "rssi: {\(rssi.joined(separator: ", "))}, readings: \(p.readings)}\n"
        }
        return out
    }

    /// `locator.fingerprints`, indented under `locator:`: one flow mapping a room.
    static func fingerprintsSection(_ f: RoomFingerprints) -> String {
        "  fingerprints:\n" + YAMLText.fingerprints(f).map { "    - \($0)\n" }.joined()
    }

    /// Each room typed, stamped with the wall clock as it is entered.
    private func typeMarks(_ context: CommandContext) -> ExitCode {
        context.err("type each room's name as you enter it; end with Ctrl-D\n")
        while let line = readLine() {
            let room = line.trimmingSpaces
            guard !room.isEmpty else { continue }
            context.out("\(WallClock.now().rfc3339) \(room)\n")
            context.flush()
        }
        return .success
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(
            drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }
                .reversed())
    }
}

extension String {
    fileprivate var trimmingSpaces: String { Substring(self).trimmingSpaces }
}
