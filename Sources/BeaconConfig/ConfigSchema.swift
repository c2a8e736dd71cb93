/// The keys one kind of YAML file accepts, by section (`regions[]` is one list item): the
/// configuration's (`ConfigKeys`) or the floor plan's. `ConfigMapping` rejects every other key with
/// a did-you-mean, so both files report mistakes the same way.
package struct ConfigSchema: Sendable {
    package var sections: [String: [String]]
    /// Sections whose keys are names chosen by the operator (gateway ids), not fixed keys.
    package var freeForm: Set<String> = []
    /// Keys refused with a specific explanation instead of "unknown key".
    package var refused: [String: String] = [:]

    package init(sections: [String: [String]], freeForm: Set<String> = [], refused: [String: String] = [:]) {
        self.sections = sections
        self.freeForm = freeForm
        self.refused = refused
    }

    /// `beacon2mqtt.yaml`.
    static let configuration = ConfigSchema(
        sections: ConfigKeys.sections, freeForm: ConfigKeys.freeForm, refused: ConfigKeys.refused)
}
