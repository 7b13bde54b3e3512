import FaceAnalysis

/// FaceAnalysis's analyzer is the built-in engine: one per worker (it owns its
/// interpreters and arenas), over models parsed once per run and shared.
extension FaceAnalyzer: FaceEngine {}

extension FaceEngineFactory {
    /// The engine the `facepipe` command uses: FaceAnalysis's ``FaceAnalyzer``
    /// on facepipe's inference engine. The model files are parsed once per run
    /// (``SharedResources``) and each worker makes its own analyzer.
    public static let builtIn: FaceEngineFactory? = FaceEngineFactory { shared in
        let models = try shared.value("facepipe.face-models", as: FaceModels.self) {
            try FaceModels(directory: shared.modelsDirectory)
        }
        return FaceAnalyzer(models: models)
    }
}
