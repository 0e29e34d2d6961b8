// A device trace's events turned into the adapter's calls, whatever reader they came from. The
// position axes' ranges come from `--axis-range`, else the device's description (the multitouch
// axes, else ABS_X and ABS_Y, with a warning), else the largest positions the events reach (with
// a warning). The protocol comes from the events themselves: ABS_MT_SLOT is protocol B,
// SYN_MT_REPORT protocol A (tracked into contacts as mtdev does), and a report of a tracking id or
// a position before either is protocol B's slot 0. A touchpad's trace, or one cut in the middle of a report, is replayed
// with a word saying so.
import Limits

enum TraceDecoding {
    private enum MultitouchProtocol { case undecided, a, b }

    static func decode(_ trace: TraceEvents, options: TraceOptions) throws(RecordingError) -> InputReading {
        guard let firstLine = trace.lines.first else {
            throw RecordingError(line: trace.lastLine, "expected \(trace.format) event lines, and the trace holds none")
        }
        var warnings: [String] = []
        let (x, y) = try axes(trace, options: options, line: firstLine, warnings: &warnings)
        let placement = Placement(x: x, y: y, width: options.width, height: options.height)
        var direct = MultitouchDecoder(placement: placement)
        var tracked = MultitouchDecoder(placement: placement)
        var converter = ProtocolAConverter()
        var mode: MultitouchProtocol = trace.description.ranges[EvdevEvent.mtSlot] != nil ? .b : .undecided
        var sawContact = false
        var entries: [RecordingEntry] = []
        /// The first line of events a SYN_REPORT has not closed yet.
        var openSince: Int?
        for (event, line) in zip(trace.events, trace.lines) {
            if event.isReport { openSince = nil } else if event.type != 0, openSince == nil { openSince = line }
            if mode == .undecided {
                if event.isMTReport { mode = .a }
                if event.type == EvdevEvent.abs, event.code == EvdevEvent.mtSlot { mode = .b }
            }
            switch mode {
            case .b: entries += try direct.decode(event, line: line)
            case .a:
                for converted in try converter.convert(event, line: line) { entries += try tracked.decode(converted, line: line) }
            case .undecided:
                // Until the events tell, both read them. A report that closes a tracking id or
                // a position without any SYN_MT_REPORT is protocol B's (protocol A closes every
                // contact with one), so only protocol B can have put a finger down by then.
                _ = try converter.convert(event, line: line)
                entries += try direct.decode(event, line: line)
                if event.type == EvdevEvent.abs,
                   [EvdevEvent.mtTrackingID, EvdevEvent.mtPositionX, EvdevEvent.mtPositionY].contains(event.code) {
                    sawContact = true
                }
                if event.isReport, sawContact { mode = .b }
            }
        }
        if let openSince {
            warnings.append("the trace ends in the middle of a report (its events from line \(openSince) have no SYN_REPORT): they were not replayed")
        }
        let alreadyDown = mode == .a ? 0 : direct.fingersAlreadyDown
        if alreadyDown > 0 {
            warnings.append("the trace begins with \(alreadyDown) finger\(alreadyDown == 1 ? "" : "s") already down: each lands where it is first seen")
        }
        if trace.description.isIndirect {
            warnings.append("the device is a touchpad, not a touchscreen: its contacts are replayed where they lie on the pad, as if it were a screen")
        }
        return InputReading(entries: entries, warnings: warnings, palms: direct.palms + tracked.palms, isTrace: true)
    }

    /// The position axes' ranges, from the first source that has them.
    private static func axes(_ trace: TraceEvents, options: TraceOptions, line: Int,
                             warnings: inout [String]) throws(RecordingError) -> (AxisRange, AxisRange) {
        if let given = options.axisRanges, given.count == 2 {
            // Resolution from the description, if it has one, still gives the proportions.
            var x = given[0], y = given[1]
            if let described = trace.description.multitouchAxes {
                (x.resolution, y.resolution) = (described.x.resolution, described.y.resolution)
            }
            return (x, y)
        }
        if let axes = trace.description.multitouchAxes { return axes }
        if let axes = trace.description.singleTouchAxes {
            warnings.append("the trace describes no ABS_MT_POSITION_X/Y ranges: took those of ABS_X and ABS_Y")
            return axes
        }
        var seenX: Int32?, seenY: Int32?
        for event in trace.events where event.type == EvdevEvent.abs {
            if event.code == EvdevEvent.mtPositionX { seenX = max(seenX ?? 0, event.value) }
            if event.code == EvdevEvent.mtPositionY { seenY = max(seenY ?? 0, event.value) }
        }
        guard let seenX, let seenY else {
            throw RecordingError(line: line, """
                expected multitouch positions (ABS_MT_POSITION_X and ABS_MT_POSITION_Y) from line \(line) on, \
                and the trace has none: not a multitouch touchscreen's
                """)
        }
        warnings.append("""
            the trace describes no axis ranges: positions are scaled as if the panel ended at the largest seen \
            (x 0-\(seenX), y 0-\(seenY)); give --axis-range XMIN:XMAX,YMIN:YMAX for the panel's own
            """)
        return (AxisRange(minimum: 0, maximum: seenX), AxisRange(minimum: 0, maximum: seenY))
    }
}
