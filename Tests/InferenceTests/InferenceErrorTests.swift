import Inference
import Testing

@Test func errorDescribesItself() {
    #expect("\(InferenceError("unsupported operator CUSTOM"))" == "unsupported operator CUSTOM")
}
