/// The floor plan of the walk, used by the demo and the tests, and shown in
/// docs/locator.md, "Simulating a building": gateway A on floor 1, B and C on floor 2 above it; beacon 1 rests at A,
/// walks up the stairs to B, on to C, and back the same way (40 s stops, 20 s walks).
package enum FloorPlanExample {
    package static let threeGateways = """
        # beacon2mqtt floor plan: gateways at coordinates (metres), beacons walking timed waypoints.
        seed: 7
        path_loss_exponent: 2.7
        noise_db: 4
        floor_attenuation_db: 15
        floor_height: 3
        measured_power: -59
        advert_interval: 0.2
        gateways:
          - {id: A, floor: 1, room: hall, x: 0, y: 0}
          - {id: B, floor: 2, room: office, x: 8, y: 0}
          - {id: C, floor: 2, room: lab, x: 16, y: 0}
        waypoints:
          - {minor: 1, at: 0, x: 0, y: 1, floor: 1}
          - {minor: 1, at: 40, x: 0, y: 1, floor: 1}
          - {minor: 1, at: 60, x: 8, y: 1, floor: 2}
          - {minor: 1, at: 100, x: 8, y: 1, floor: 2}
          - {minor: 1, at: 120, x: 16, y: 1, floor: 2}
          - {minor: 1, at: 160, x: 16, y: 1, floor: 2}
          - {minor: 1, at: 180, x: 8, y: 1, floor: 2}
          - {minor: 1, at: 220, x: 8, y: 1, floor: 2}
          - {minor: 1, at: 240, x: 0, y: 1, floor: 1}
          - {minor: 1, at: 280, x: 0, y: 1, floor: 1}
        """

    /// Real moves of beacon 1 in `threeGateways`, seconds after the start, and where each ends.
    package static let moves: [(during: ClosedRange<Double>, to: String)] = [
        (40...60, "B"), (100...120, "C"), (160...180, "B"), (220...240, "A"),
    ]
}
