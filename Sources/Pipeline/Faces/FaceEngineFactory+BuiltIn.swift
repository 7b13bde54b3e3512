import FaceAnalysis

/// FaceAnalysis's analyzer is the built-in engine: one per worker (it owns its
/// interpreters and arenas), over the models the plan loaded once.
extension FaceAnalyzer: FaceEngine {}

extension FaceEngineFactory {
    /// The engine the `facepipe` command uses: FaceAnalysis's `FaceAnalyzer`
    /// on facepipe's inference engine, over the plan's models.
    public static let builtIn = FaceEngineFactory { shared in
        FaceAnalyzer(models: shared.models)
    }
}
