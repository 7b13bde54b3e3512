import Foundation

/// Median wall-clock time of repeated calls, for the probes.
enum Stopwatch {
    /// Median milliseconds of `runs` calls of `body`, after one untimed call when `warmUp`.
    static func median(_ runs: Int, warmUp: Bool = true, _ body: () throws -> Void) rethrows -> Double {
        if warmUp { try body() }
        var samples: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        return samples.sorted()[runs / 2]
    }
}
