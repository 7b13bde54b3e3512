extension FaceEngineFactory {
    /// The engine the `facepipe` command uses: FaceAnalysis's analyzer over the
    /// built-in inference engine. Nil until that analyzer is part of the build;
    /// face stages then fail per entry with ``FaceEngineUnavailable``.
    public static let builtIn: FaceEngineFactory? = nil
}
