/// The one HCI packet decoder (Core Spec Vol 4, Part E, §5.4.4 framing, §7.7 events). Both paths
/// share its framing: `forEachReport` yields the advertising reports of the LE Meta subevents in
/// `AdvertisingReport.Kind` (0x02 §7.7.65.2, 0x0B §7.7.65.11, 0x0D §7.7.65.13) and classifies every
/// other packet (`PacketClass`) for the caller to count; `controllerEvent` turns the events the scan
/// state machine acts on (command complete/status, hardware error, ...) into a `ControllerEvent`.
///
/// Reports in one event are laid out one after another (each report's fields, then the next
/// report), as Linux delivers them and as the captures in Tests/Fixtures show — not the
/// "array of each field" layout some editions of the spec tables suggest. A report that runs
/// past the end of the event stops decoding: the reports before it are delivered, then
/// `DecodeError.truncated` names the report and its offset.
public enum HCIPacketDecoder {
    /// Where an event's parameters are, after the H4 indicator (if any) and the event header.
    struct EventFrame {
        var code: UInt8
        /// The parameter bytes present, from offset `origin` of the packet.
        var parameters: UnsafeRawBufferPointer
        var origin: Int
        var declared: Int
        /// Parameter_Total_Length promises more bytes than are present.
        var isTruncated: Bool { declared > parameters.count }

        var truncation: DecodeError {
            .truncated(what: .eventParameters, needed: declared, available: parameters.count, offset: origin)
        }
    }

    enum Framing {
        case event(EventFrame)
        /// Not an event: command, ACL, SCO or ISO.
        case other(PacketClass)
    }

    /// Splits off the H4 indicator and the event header (Event_Code, Parameter_Total_Length, §5.4.4).
    /// Returns the packet's class instead when it is not an event.
    ///
    /// With `.auto`, a buffer starting with 0x04 whose third byte equals the remaining length is an
    /// H4 event; failing that, one whose second byte equals the remaining length is a bare event;
    /// 0x01/0x02/0x03/0x05 are H4 command/ACL/SCO/ISO packets; anything else is read as a bare event.
    @inline(__always)
    static func eventFrame(
        in packet: UnsafeRawBufferPointer, indicator: H4Indicator
    ) throws(DecodeError) -> Framing {
        guard let first = packet.first else { throw .empty }
        let start: Int
        switch indicator {
        case .absent:
            start = 0
        case .framedLEMetaEvent where packet.count > 3:
            // Framed once, by its source: a case of this switch, so `bench decode`'s path keeps its
            // code (a branch before the framing measured 5 % slower there, a second entry more).
            return .event(
                EventFrame(
                    code: HCIEventCode.leMeta, parameters: UnsafeRawBufferPointer(rebasing: packet[3...]), origin: 3,
                    declared: packet.count - 3))
        case .present, .framedLEMetaEvent:
            // An event (nearly every packet) by one compare: the raw-value initialiser is a call.
            if first != HCIPacketType.event.rawValue {
                guard let type = HCIPacketType(rawValue: first) else { throw .unknownPacketIndicator(first, offset: 0) }
                return .other(PacketClass(packetType: type))
            }
            start = 1
        case .auto:
            if first == HCIPacketType.event.rawValue {
                let looksH4 = packet.count >= 3 && Int(packet[2]) == packet.count - 3
                let looksBare = packet.count >= 2 && Int(packet[1]) == packet.count - 2
                start = looksH4 || !looksBare ? 1 : 0
            } else if let type = HCIPacketType(rawValue: first) {
                return .other(PacketClass(packetType: type))
            } else {
                start = 0
            }
        }
        let header = ByteReader(
            UnsafeRawBufferPointer(rebasing: packet[start...]), origin: start, context: .eventHeader)
        try header.require(2)
        let code = header.bytes[0]
        let declared = Int(header.bytes[1])
        let present = header.remaining - 2
        if declared < present {
            throw .badParameterLength(declared: declared, available: present, offset: start + 1)
        }
        return .event(
            EventFrame(
                code: code, parameters: UnsafeRawBufferPointer(rebasing: header.bytes[2...]), origin: start + 2,
                declared: declared))
    }

    /// Zero-allocation path: calls `body` once per report with its header and its AD data
    /// (borrowed from `packet`, valid only during the call). Framing as in `eventFrame`: a packet its
    /// source framed already is read with `indicator: .framedLEMetaEvent`.
    public static func forEachReport(
        in packet: UnsafeRawBufferPointer, indicator: H4Indicator = .auto,
        _ body: (ReportHeader, UnsafeRawBufferPointer) -> Void
    ) throws(DecodeError) -> PacketClass {
        let frame: EventFrame
        switch try eventFrame(in: packet, indicator: indicator) {
        case .event(let f): frame = f
        case .other(let other): return other
        }
        var result = PacketClass(packetType: .event, eventCode: frame.code)
        guard frame.code == HCIEventCode.leMeta else {
            if frame.isTruncated { throw frame.truncation }
            return result
        }
        var reader = ByteReader(frame.parameters, origin: frame.origin, context: .leMetaSubevent)
        let subevent = try reader.readUInt8()
        result.leSubevent = subevent
        // The cases of `AdvertisingReport.Kind`, most common first, as plain byte compares: an
        // exhaustive switch or one shared loop measured 1–9 % slower on `bench decode`.
        if subevent == AdvertisingReport.Kind.legacy.rawValue {
            let count = try reportCount(&reader)
            for index in 0..<count {
                let (header, data) = try legacyReport(&reader, number: index + 1)
                body(header, data)
                result.reportCount += 1
            }
        } else if subevent == AdvertisingReport.Kind.extended.rawValue {
            let count = try reportCount(&reader)
            for index in 0..<count {
                let (header, data) = try extendedReport(&reader, number: index + 1)
                body(header, data)
                result.reportCount += 1
            }
        } else if subevent == AdvertisingReport.Kind.directed.rawValue {
            let count = try reportCount(&reader)
            for index in 0..<count {
                body(try directedReport(&reader, number: index + 1), UnsafeRawBufferPointer(start: nil, count: 0))
                result.reportCount += 1
            }
        }
        if frame.isTruncated { throw frame.truncation }
        return result
    }

    /// Num_Reports, the byte after the subevent code.
    @inline(__always)
    private static func reportCount(_ reader: inout ByteReader) throws(DecodeError) -> Int {
        reader.context = .reportCount
        return Int(try reader.readUInt8())
    }

    /// Decodes `bytes` and appends its reports to `reports`; on error the reports before the
    /// damaged one have already been appended.
    @discardableResult
    public static func decodeReports(
        _ bytes: [UInt8], indicator: H4Indicator = .auto, into reports: inout [AdvertisingReport]
    ) throws(DecodeError) -> PacketClass {
        let outcome: Result<PacketClass, DecodeError> = bytes.withUnsafeBytes { raw in
            do throws(DecodeError) {
                return .success(
                    try forEachReport(in: raw, indicator: indicator) { header, data in
                        reports.append(AdvertisingReport(header, data: data))
                    })
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// Convenience: the packet's class and all its reports. Use `decodeReports(_:indicator:into:)`
    /// to keep the reports before a truncated one.
    public static func decode(_ bytes: [UInt8], indicator: H4Indicator = .auto) throws(DecodeError) -> HCIPacketSummary
    {
        var reports: [AdvertisingReport] = []
        let packetClass = try decodeReports(bytes, indicator: indicator, into: &reports)
        return HCIPacketSummary(packetClass: packetClass, reports: reports)
    }
}
