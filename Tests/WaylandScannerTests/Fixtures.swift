import Foundation
import WaylandScannerCore

/// Small protocols written for the tests, and helpers to run the scanner on them.
enum Fixtures {
    /// Exercises names, keywords, enums, bitfields, versions, nullability, new ids and destructors.
    static let things = """
    <?xml version="1.0" encoding="UTF-8"?>
    <protocol name="things">
      <interface name="tt_thing_manager" version="3">
        <description summary="makes things"/>
        <request name="create_thing">
          <description summary="create a thing"/>
          <arg name="id" type="new_id" interface="tt_thing"/>
          <arg name="parent" type="object" interface="tt_thing" allow-null="true"/>
        </request>
        <request name="destroy" type="destructor"/>
      </interface>
      <interface name="tt_thing" version="4">
        <description summary="a thing
          with a summary on two lines"/>
        <request name="set_title">
          <arg name="title" type="string"/>
        </request>
        <request name="set_label" since="2">
          <arg name="label" type="string" allow-null="true"/>
        </request>
        <request name="attach" since="3">
          <arg name="buffer" type="object" interface="tt_thing_manager" allow-null="true"/>
          <arg name="x" type="int"/>
          <arg name="y" type="fixed"/>
        </request>
        <request name="default">
          <arg name="in" type="int" enum="transform"/>
          <arg name="repeat" type="uint" enum="caps"/>
        </request>
        <request name="send_fd">
          <arg name="fd" type="fd"/>
          <arg name="bytes" type="array"/>
        </request>
        <request name="version">
          <arg name="protocol" type="uint" enum="type"/>
        </request>
        <request name="destroy" type="destructor"/>
        <event name="configure">
          <description summary="configure the thing"/>
          <arg name="serial" type="uint"/>
          <arg name="states" type="array"/>
        </event>
        <event name="enter" since="2">
          <arg name="other" type="object" interface="tt_thing"/>
          <arg name="surface_x" type="fixed"/>
          <arg name="keymap_fd" type="fd"/>
        </event>
        <event name="spawned">
          <arg name="child" type="new_id" interface="tt_thing"/>
          <arg name="name" type="string" allow-null="true"/>
        </event>
        <event name="close"/>
        <event name="done" type="destructor" since="4">
          <arg name="caps" type="uint" enum="caps"/>
        </event>
        <enum name="error">
          <entry name="bad_thing" value="0" summary="the thing is bad"/>
        </enum>
        <enum name="type">
          <entry name="pen" value="0x140"/>
        </enum>
        <enum name="transform">
          <entry name="normal" value="0"/>
          <entry name="90" value="1"/>
          <entry name="flipped_90" value="5"/>
        </enum>
        <enum name="caps" bitfield="true">
          <entry name="none" value="0"/>
          <entry name="touch" value="1"/>
          <entry name="default" value="2"/>
          <entry name="pen" value="1 &lt;&lt; 3"/>
        </enum>
      </interface>
      <interface name="tt_registry" version="1">
        <request name="bind">
          <arg name="name" type="uint"/>
          <arg name="id" type="new_id"/>
        </request>
      </interface>
    </protocol>
    """

    /// A second protocol that refers to the first one's interfaces and enums.
    static let extra = """
    <?xml version="1.0" encoding="UTF-8"?>
    <protocol name="extra">
      <interface name="zwp_tablet_tool_v2" version="2">
        <request name="set_thing_transform">
          <arg name="thing" type="object" interface="tt_thing"/>
          <arg name="transform" type="int" enum="tt_thing.transform"/>
        </request>
        <request name="get_thing">
          <arg name="id" type="new_id" interface="tt_thing"/>
        </request>
      </interface>
    </protocol>
    """

    static func generate(_ files: [(String, String)]) throws -> [String: String] {
        let outputs = try WaylandScanner.generate(files.map { ($0.0, Data($0.1.utf8)) })
        return Dictionary(uniqueKeysWithValues: outputs.map { ($0.name, $0.contents) })
    }

    /// The error the scanner reports for one document, as printed.
    static func error(_ xml: String, file: String = "protocols/foo.xml") -> String? {
        do {
            _ = try WaylandScanner.generate([(file, Data(xml.utf8))])
            return nil
        } catch {
            return error.description
        }
    }

    /// The package root, found from this file's path.
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    static var realProtocolPaths: [String] {
        let directory = packageRoot.appendingPathComponent("protocols")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".xml") }.sorted().map { directory.appendingPathComponent($0).path }
    }
}

extension String {
    /// The lines of the text, trimmed, for "contains this line" checks that ignore indentation.
    var trimmedLines: [String] {
        split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    func hasLine(_ line: String) -> Bool { trimmedLines.contains(line) }
}
