import Inference
import TFLite
import Testing

/// An `InferenceError` reads as one sentence naming the file's operator,
/// tensors and shapes, and compares by what went wrong, not by its text.
@Suite struct InferenceErrorTests {
    static let weights = TensorReference(index: 1, name: "conv/weights")
    static let channels = InferenceError.Kind.inputChannels(weights: weights, expected: 4, got: 8)

    @Test func operatorErrorNamesTheOperatorAndTensor() {
        let error = InferenceError(Self.channels, operator: OperatorReference(index: 3, code: .conv2D))
        #expect("\(error)" == "operator 3 (CONV_2D): weights tensor 1 'conv/weights' expect 4 input channels; the input has 8")
    }

    @Test func resizedPlanErrorSaysAtWhichShape() {
        let error = InferenceError(.operandShapes([1, 7, 7, 8], [1, 8, 8, 8]), operator: OperatorReference(index: 40, code: .add),
                                   inputShape: [1, 200, 200, 3])
        #expect("\(error)" == "cannot plan the model at input shape [1, 200, 200, 3]: operator 40 (ADD): "
            + "operand shapes [1, 7, 7, 8] and [1, 8, 8, 8] differ (broadcasting is unsupported)")
    }

    @Test func modelErrorNamesNoOperator() {
        let error = InferenceError(.outputNotComputed(TensorReference(index: 9, name: "scores")))
        #expect("\(error)" == "model output tensor 9 'scores' is never computed by an operator")
    }

    /// Equality is by kind, operator and shape: the same words about another operator are another error.
    @Test func errorsCompareByWhatWentWrong() {
        let atConvolution = InferenceError(Self.channels, operator: OperatorReference(index: 3, code: .conv2D))
        #expect(atConvolution == InferenceError(Self.channels, operator: OperatorReference(index: 3, code: .conv2D)))
        #expect(atConvolution != InferenceError(Self.channels, operator: OperatorReference(index: 4, code: .conv2D)))
        #expect(atConvolution != InferenceError(Self.channels))
        #expect(atConvolution != InferenceError(.inputChannels(weights: Self.weights, expected: 4, got: 16),
                                                operator: OperatorReference(index: 3, code: .conv2D)))
        #expect(atConvolution != InferenceError(Self.channels, operator: OperatorReference(index: 3, code: .conv2D), inputShape: [1, 8, 8, 8]))
    }

    /// An operator the reader does not know is named by its number.
    @Test func unknownOperatorIsNamedByNumber() {
        let code = BuiltinOperator(rawValue: 300)
        let error = InferenceError(.unsupportedOperator(code), operator: OperatorReference(index: 0, code: code))
        #expect("\(error)" == "operator 0 (BUILTIN_300): the engine does not support this operator (builtin code 300)")
    }
}
