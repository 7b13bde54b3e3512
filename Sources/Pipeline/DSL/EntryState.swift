import ImageCore

/// One entry between two top-level steps of a plan: what every ``Frame``
/// holds, without its phase, and at the end what ``WriteOutputs`` rendered.
/// Phases are compile-time markers; each step knows its own and converts
/// (see `_StepValue`), so the plan is a flat list of steps with no casts.
public struct EntryState: Sendable {
    package var image: RGBImage
    package var record: EntryRecord
    var encoded: [UInt8]
    package var rendered: RenderedEntry?
    /// ``Frame/deferredLabels`` between steps.
    var deferredLabels: Annotate?

    package init(record: EntryRecord, encoded: [UInt8]) {
        image = RGBImage(width: 0, height: 0)
        self.record = record
        self.encoded = encoded
    }
}

/// Plumbing: a value a top-level stage takes from or leaves in the
/// ``EntryState`` (``Frame`` both ways, ``RenderedEntry`` as the last output).
/// A stage whose input and output conform becomes a step of the plan.
public protocol _StepValue: Sendable {
    /// Moves the value out of `state` (the pixels keep one reference, so a
    /// stage can draw on them in place).
    static func _take(from state: inout EntryState) -> Self
    /// Moves the value into `state`.
    consuming func _store(into state: inout EntryState)
}

extension Frame: _StepValue {
    public static func _take(from state: inout EntryState) -> Frame<P> {
        let image = state.image
        state.image = RGBImage(width: 0, height: 0)
        let encoded = state.encoded
        state.encoded = []
        var frame = Frame(image: image, record: state.record, encoded: encoded)
        frame.deferredLabels = state.deferredLabels
        return frame
    }

    public consuming func _store(into state: inout EntryState) {
        state.image = image
        state.record = record
        state.encoded = encoded
        state.deferredLabels = deferredLabels
    }
}

extension RenderedEntry: _StepValue {
    public static func _take(from state: inout EntryState) -> RenderedEntry {
        state.rendered ?? RenderedEntry(record: state.record, image: nil, imageExtension: "", writesFaceJSON: false)
    }

    public consuming func _store(into state: inout EntryState) {
        state.record = record
        state.rendered = self
    }
}
