import Foundation
import Testing
@testable import WaylandScannerCore

/// Bad input is reported as `file:line: error: message`, at the line of the offending element.
@Suite("Diagnostics")
struct DiagnosticTests {
    private func protocolXML(_ body: String) -> String {
        // Line 1 is the protocol element; the body starts on line 2.
        "<protocol name=\"foo\">\n" + body + "\n</protocol>\n"
    }

    @Test("malformed XML names the file and the line")
    func malformed() throws {
        let xml = protocolXML("""
          <interface name="a" version="1">
            <request name="r">
          </interface>
        """)
        let message = try #require(Fixtures.error(xml))
        #expect(message.hasPrefix("protocols/foo.xml:4: error: malformed XML"), "\(message)")
    }

    @Test("a file that is not XML at all")
    func notXML() throws {
        let message = try #require(Fixtures.error("hello"))
        #expect(message.hasPrefix("protocols/foo.xml:1: error:"), "\(message)")
    }

    @Test("missing name")
    func missingName() throws {
        let xml = protocolXML("""
          <interface name="a" version="1">
            <request>
            </request>
          </interface>
        """)
        let message = try #require(Fixtures.error(xml))
        #expect(message == "protocols/foo.xml:3: error: <request> is missing the 'name' attribute", "\(message)")
    }

    @Test("missing protocol name and interface version")
    func missingAttributes() throws {
        #expect(Fixtures.error("<protocol>\n</protocol>") == "protocols/foo.xml:1: error: <protocol> is missing the 'name' attribute")
        let xml = protocolXML("  <interface name=\"a\">\n  </interface>")
        #expect(Fixtures.error(xml) == "protocols/foo.xml:2: error: <interface> 'a' is missing the 'version' attribute")
    }

    @Test("unknown argument type")
    func unknownType() throws {
        let xml = protocolXML("""
          <interface name="a" version="1">
            <request name="r">
              <arg name="x" type="integer"/>
            </request>
          </interface>
        """)
        let message = try #require(Fixtures.error(xml))
        #expect(message.hasPrefix("protocols/foo.xml:4: error: argument 'x' has unknown type 'integer'"), "\(message)")
    }

    @Test("enum reference to an unknown enum")
    func unknownEnum() throws {
        let xml = protocolXML("""
          <interface name="a" version="1">
            <enum name="mode">
              <entry name="on" value="1"/>
            </enum>
            <request name="r">
              <arg name="x" type="uint" enum="other.mode"/>
              <arg name="y" type="uint" enum="mood"/>
            </request>
          </interface>
        """)
        let message = try #require(Fixtures.error(xml))
        #expect(message == "protocols/foo.xml:7: error: argument 'x' of 'a.r' references unknown enum 'other.mode'", "\(message)")
    }

    @Test("interface referenced but defined in no input")
    func unknownInterface() throws {
        let xml = protocolXML("""
          <interface name="a" version="1">
            <event name="e">
              <arg name="s" type="object" interface="wl_surface"/>
            </event>
          </interface>
        """)
        let message = try #require(Fixtures.error(xml))
        #expect(message == "protocols/foo.xml:4: error: argument 's' of 'a.e' references interface 'wl_surface', which no input defines", "\(message)")
    }

    @Test("the same interface in two files points at both")
    func duplicateInterface() throws {
        let one = "<protocol name=\"one\">\n  <interface name=\"a\" version=\"1\"/>\n</protocol>"
        let two = "<protocol name=\"two\">\n\n  <interface name=\"a\" version=\"1\"/>\n</protocol>"
        do {
            _ = try WaylandScanner.generate([("p/one.xml", Data(one.utf8)), ("p/two.xml", Data(two.utf8))])
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "p/two.xml:3: error: interface 'a' is already defined at p/one.xml:2")
        }
    }

    @Test("since beyond the interface version, bad numbers, bitfield on int")
    func otherChecks() throws {
        let since = protocolXML("  <interface name=\"a\" version=\"2\">\n    <request name=\"r\" since=\"3\"/>\n  </interface>")
        #expect(Fixtures.error(since) == "protocols/foo.xml:3: error: request 'a.r' has since=\"3\" but the interface is version 2")
        let value = protocolXML("  <interface name=\"a\" version=\"1\">\n    <enum name=\"e\">\n      <entry name=\"x\" value=\"-1\"/>\n    </enum>\n  </interface>")
        #expect(Fixtures.error(value) == "protocols/foo.xml:4: error: value of entry 'x' '-1' is not an unsigned 32-bit number (decimal, 0x hexadecimal, or A << B)")
        let shifted = protocolXML("  <interface name=\"a\" version=\"1\">\n    <enum name=\"e\">\n      <entry name=\"x\" value=\"1 &lt;&lt; 32\"/>\n    </enum>\n  </interface>")
        #expect(Fixtures.error(shifted) == "protocols/foo.xml:4: error: value of entry 'x' '1 << 32' is not an unsigned 32-bit number (decimal, 0x hexadecimal, or A << B)")
        let bitfield = protocolXML("""
          <interface name="a" version="1">
            <enum name="e" bitfield="true"><entry name="x" value="1"/></enum>
            <request name="r">
              <arg name="f" type="int" enum="e"/>
            </request>
          </interface>
        """)
        let message = try #require(Fixtures.error(bitfield))
        #expect(message.hasPrefix("protocols/foo.xml:5: error: argument 'f' is an int but enum 'e' is a bitfield"), "\(message)")
    }

    @Test("Swift name collisions are errors, not broken code")
    func collisions() throws {
        let xml = protocolXML("""
          <interface name="a" version="1">
            <request name="set_x"/>
            <request name="set__x"/>
          </interface>
        """)
        let message = try #require(Fixtures.error(xml))
        #expect(message.hasPrefix("protocols/foo.xml:4: error: requests 'set__x' and 'set_x' of 'a' both become setX"), "\(message)")
    }

    @Test("unreadable input files are reported")
    func unreadable() throws {
        do {
            try WaylandScanner.run(inputPaths: ["/nonexistent/foo.xml"], outputDirectory: NSTemporaryDirectory())
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "/nonexistent/foo.xml:1: error: cannot read file")
        }
    }
}
