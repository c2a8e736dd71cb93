/// How Home Assistant reads a sensor's number (HA docs, "MQTT Sensor"): its unit, whether its
/// long-term statistics keep it, and the decimals its frontend shows.
package struct HomeAssistantMeasurement: Sendable, Equatable {
    /// `unit_of_measurement`.
    package var unit: String? = nil
    /// `state_class`: only where long-term statistics make sense (counters, rates), never on enums
    /// or states.
    package var stateClass: String? = nil
    /// `suggested_display_precision`.
    package var displayPrecision: Int? = nil

    package init() {}
}
