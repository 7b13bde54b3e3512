/// Callbacks a run makes: progress after each written entry, and a stop
/// request (Ctrl-C) checked before each new entry is started.
public struct RunHooks: Sendable {
    public var shouldStop: @Sendable () -> Bool
    public var progress: @Sendable (RunProgress) -> Void

    public init(shouldStop: @escaping @Sendable () -> Bool = { false },
                progress: @escaping @Sendable (RunProgress) -> Void = { _ in }) {
        self.shouldStop = shouldStop
        self.progress = progress
    }
}
