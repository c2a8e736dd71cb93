import BeaconWire

/// One line of the results table: a named measurement in a section, with its figures.
struct BenchResult {
    /// One figure: a key for the JSON, a value, and its unit for the table.
    struct Figure {
        var key: String
        var value: Double
        var unit: String
        /// Digits after the point in the table (JSON keeps more).
        var decimals: Int
    }

    var section: String
    var name: String
    var figures: [Figure] = []
    /// Free text: a target verdict, a caveat, or why the line could not be measured.
    var note: String = ""

    init(section: String, name: String, note: String = "") {
        self.section = section
        self.name = name
        self.note = note
    }

    mutating func add(_ key: String, _ value: Double, _ unit: String, decimals: Int = 0) {
        figures.append(Figure(key: key, value: value, unit: unit, decimals: decimals))
    }

    func figure(_ key: String) -> Double? { figures.first { $0.key == key }?.value }

    /// A busy real gateway: what one BLE controller delivers over HCI in a crowded hall.
    static let controllerReportsPerSecond = 3_000.0

    /// Adds `headroom_x`: how many busy controllers' worth of reports this rate absorbs.
    mutating func addHeadroom(reportsPerSecond: Double) {
        add("headroom_x", reportsPerSecond / Self.controllerReportsPerSecond, "× 3k/s", decimals: 0)
    }

    func writeJSON(to json: inout JSONWriter) {
        json.beginObject()
        json.field("section", section)
        json.field("name", name)
        for figure in figures where figure.value.isFinite {
            json.field(figure.key, figure.value, decimals: max(figure.decimals, 3))
        }
        if !note.isEmpty { json.field("note", note) }
        json.endObject()
    }
}
