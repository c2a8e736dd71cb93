import BeaconWire
import Foundation
import Testing
import Vocabulary

@testable import CLI
@testable import HCITransport
@testable import IntegrationSupport
@testable import Platform

@Suite struct HCIAdapterTests {
    static let usb = BluetoothAddress("00:1A:7D:DA:71:13")!
    static let builtin = BluetoothAddress("B8:27:EB:00:00:01")!

    @Test func parsesIndexAddressAndAuto() {
        #expect(HCIAdapterSelection("hci0") == .index(0))
        #expect(HCIAdapterSelection("HCI12") == .index(12))
        #expect(HCIAdapterSelection("auto") == .auto)
        #expect(HCIAdapterSelection("00:1a:7d:da:71:13") == .address(Self.usb))
        #expect(HCIAdapterSelection("hci") == nil)
        #expect(HCIAdapterSelection("00:1a:7d:da:71") == nil)
        #expect(HCIAdapterSelection("usb0") == nil)
    }

    @Test func addressSelectionFollowsTheControllerAcrossAnIndexChange() {
        let before = [
            HCIAdapter(index: 0, address: Self.builtin, isUp: true),
            HCIAdapter(index: 1, address: Self.usb, isUp: true),
        ]
        // After a USB reset the dongle re-registers as hci2.
        let after = [
            HCIAdapter(index: 0, address: Self.builtin, isUp: true),
            HCIAdapter(index: 2, address: Self.usb, isUp: true),
        ]
        let selection = HCIAdapterSelection.address(Self.usb)
        #expect(selection.pick(from: before)?.name == "hci1")
        #expect(selection.pick(from: after)?.name == "hci2")
        #expect(HCIAdapterSelection.index(1).pick(from: after) == nil)
    }

    @Test func autoPrefersAnAdapterThatIsUp() {
        let adapters = [
            HCIAdapter(index: 0, address: Self.builtin, isUp: false),
            HCIAdapter(index: 1, address: Self.usb, isUp: true),
        ]
        #expect(HCIAdapterSelection.auto.pick(from: adapters)?.index == 1)
        #expect(HCIAdapterSelection.auto.pick(from: [adapters[0]])?.index == 0)
        #expect(HCIAdapterSelection.auto.pick(from: []) == nil)
    }

    @Test func errnoIsClassifiedIntoOperatorFacingKinds() {
        #expect(HCIError(errno: EAFNOSUPPORT, operation: "socket").kind == .noBluetoothSupport)
        #expect(HCIError(errno: EPERM, operation: "write hci0").kind == .permissionDenied)
        #expect(HCIError(errno: ENODEV, operation: "bind hci0").kind == .adapterGone)
        #expect(HCIError(errno: EPIPE, operation: "read hci0").kind == .adapterGone)
        #expect(HCIError(errno: ENETDOWN, operation: "write hci0").kind == .adapterDown)
        #expect(HCIError(errno: 132, operation: "ioctl(HCIDEVUP)").kind == .rfkillBlocked)
        #expect(HCIError(errno: EAFNOSUPPORT, operation: "socket").isFatal)
        #expect(!HCIError(errno: ENODEV, operation: "socket").isFatal)
    }

    @Test func messagesTellTheOperatorWhatToDo() {
        let kernel = HCIError(errno: EAFNOSUPPORT, operation: "socket(AF_BLUETOOTH)").description
        #expect(kernel.hasPrefix("this kernel has no Bluetooth support"))
        let privilege = HCIError(errno: EPERM, operation: "write hci0").description
        #expect(privilege.contains("CAP_NET_RAW") && privilege.contains("CAP_NET_ADMIN"))
        #expect(privilege.contains("AmbientCapabilities=CAP_NET_RAW CAP_NET_ADMIN"))
        #expect(HCIError(errno: 132, operation: "up").description.contains("rfkill unblock bluetooth"))
        #expect(HCIError(errno: EPERM, operation: "x").exitCode.rawValue == 69)
    }

    /// A stand-in controller answers Read Local Supported Commands after unrelated traffic.
    @Test func probeReadsExtendedScanningFromSupportedCommands() throws {
        let fake = HCIFakeController()
        let transport = try fake.connect()
        defer { transport.close() }
        let answer = Thread {
            _ = fake.nextPacket()
            fake.send([0x04, 0x0E, 0x04, 0x01, 0x0C, 0x20, 0x00])  // someone else's LE Set Scan Enable
            fake.supportedCommands(extended: true)
        }
        answer.start()
        #expect(try HCIAdapterProbe.supportsExtendedScanning(over: transport, timeout: .seconds(10)) == true)
    }
}
