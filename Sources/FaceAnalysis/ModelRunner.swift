import Inference

/// One interpreter with its outputs bound by size (never by execution
/// order): fills the input, runs, and hands out the outputs it was asked for.
final class ModelRunner {
    let name: String
    let interpreter: Interpreter
    let inputCount: Int
    private let outputIndex: [Int: Int]

    init(model: Model, name: String) throws(FaceAnalysisError) {
        do { interpreter = try Interpreter(model: model) } catch {
            throw .inference(model: name, message: "\(error)")
        }
        self.name = name
        inputCount = model.inputs[0].elementCount
        var outputIndex: [Int: Int] = [:]
        for (i, output) in model.outputs.enumerated() where outputIndex[output.elementCount] == nil {
            outputIndex[output.elementCount] = i
        }
        self.outputIndex = outputIndex
    }

    /// Fills the input with `fill`, runs the model.
    func run(_ fill: (UnsafeMutableBufferPointer<Float>) -> Void) throws(FaceAnalysisError) {
        interpreter.withInput(0) { fill($0) }
        interpreter.invoke()
    }

    /// The output holding `count` values.
    func output<R>(count: Int, _ body: (UnsafeBufferPointer<Float>) throws(FaceAnalysisError) -> R) throws(FaceAnalysisError) -> R {
        guard let index = outputIndex[count] else {
            throw .unexpectedModelShape(model: name, detail: "no output of \(count) values")
        }
        return try interpreter.withOutput(index) { buffer in Result { () throws(FaceAnalysisError) in try body(buffer) } }.get()
    }
}
