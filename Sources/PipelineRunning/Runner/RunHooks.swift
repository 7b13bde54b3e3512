/// Callbacks a run makes: progress after each entry read and each entry
/// written, notices as problems happen, and a stop request (Ctrl-C) checked
/// before each new entry is started. All are called from the run's producer
/// task, one at a time.
public struct RunHooks: Sendable {
    public var shouldStop: @Sendable () -> Bool
    public var progress: @Sendable (RunProgress) -> Void
    public var notice: @Sendable (RunNotice) -> Void

    public init(shouldStop: @escaping @Sendable () -> Bool = { false },
                progress: @escaping @Sendable (RunProgress) -> Void = { _ in },
                notice: @escaping @Sendable (RunNotice) -> Void = { _ in }) {
        self.shouldStop = shouldStop
        self.progress = progress
        self.notice = notice
    }
}
