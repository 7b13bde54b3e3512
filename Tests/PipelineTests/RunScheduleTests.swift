import Pipeline
import PipelineRunning
import Testing

/// The runner's scheduling rules, without I/O or tasks.
@Suite struct RunScheduleTests {
    @Test(arguments: [(1, 1), (2, 8), (3, 3), (4, 16)])
    func fillsToTheWorkerCountThenWaits(workers: Int, window: Int) {
        var schedule = RunSchedule<Int>(workers: workers, window: window)
        for expected in 0..<workers {
            #expect(schedule.canStart)
            #expect(schedule.start() == expected)
        }
        #expect(!schedule.canStart, "full at \(workers) in flight")
        #expect(schedule.finished(0, at: 0) == [0])
        #expect(schedule.canStart, "one out, one in")
    }

    @Test func releasesInSequenceOrderWhateverTheFinishingOrder() {
        var schedule = RunSchedule<String>(workers: 3, window: 8)
        let a = schedule.start(), b = schedule.start(), c = schedule.start()
        #expect(schedule.finished("c", at: c).isEmpty)
        #expect(schedule.finished("b", at: b).isEmpty)
        #expect(schedule.finished("a", at: a) == ["a", "b", "c"])
        #expect(schedule.pending == 0)
    }

    @Test func aSlowEntryStopsTheProducerAtTheWindow() {
        var schedule = RunSchedule<Int>(workers: 2, window: 4)
        let slow = schedule.start()
        var released: [Int] = []
        // The second worker finishes entries while the first stays busy.
        while schedule.canStart {
            let next = schedule.start()
            released += schedule.finished(next, at: next)
        }
        #expect(released.isEmpty, "nothing passes the slow entry")
        #expect(schedule.pending == 4 && schedule.inFlight == 1, "stopped at the window, not the worker count")
        #expect(schedule.finished(slow, at: slow) == [0, 1, 2, 3])
        #expect(schedule.canStart)
    }

    @Test func outcomesMadeByTheProducerTakeNoWorker() {
        var schedule = RunSchedule<Int>(workers: 1, window: 4)
        let running = schedule.start()
        let resumed = schedule.reserve()
        #expect(schedule.made(resumed, at: resumed).isEmpty, "waits for the entry before it")
        #expect(schedule.inFlight == 1)
        #expect(schedule.finished(running, at: running) == [running, resumed])
    }

    @Test func finishedOutputsOverTheByteBudgetStopTheProducerUntilTheSlowEntryFinishes() {
        // Outcomes are their own sizes in bytes.
        var schedule = RunSchedule<Int>(workers: 2, window: 8, byteBudget: 25, bytes: { $0 })
        let slow = schedule.start()
        #expect(schedule.finished(10, at: schedule.start()).isEmpty)
        #expect(schedule.waitingBytes == 10 && schedule.canStart, "10 of 25 bytes wait")
        #expect(schedule.finished(20, at: schedule.start()).isEmpty)
        #expect(schedule.waitingBytes == 30 && !schedule.canStart, "over the budget with a worker free and the window open")
        #expect(schedule.finished(0, at: slow) == [0, 10, 20])
        #expect(schedule.waitingBytes == 0 && schedule.canStart)
        // With nothing in flight the waiting outcomes are released at once, so a large one never stops the run.
        let big = schedule.start()
        #expect(schedule.finished(100, at: big) == [100])
        #expect(schedule.canStart)
    }

    /// Decoded frames are held in bytes from start to release: with four
    /// workers free, frames of 60 bytes under a budget of 130 start two at
    /// a time; a frame larger than the whole budget still starts alone.
    @Test func framesInFlightAreBoundedInBytesNotOnlyByCount() {
        var schedule = RunSchedule<Int>(workers: 4, window: 16, frameBudget: 130)
        let first = schedule.start(holding: 60), second = schedule.start(holding: 60)
        #expect(schedule.heldFrameBytes == 120)
        #expect(!schedule.canStart(holding: 60), "a third frame would hold 180 bytes")
        #expect(schedule.canStart(holding: 0), "a still holds no frame bytes")
        #expect(schedule.finished(second, at: second).isEmpty)
        #expect(schedule.heldFrameBytes == 120, "a finished frame waiting for an earlier one is still held")
        #expect(schedule.finished(first, at: first) == [first, second])
        #expect(schedule.heldFrameBytes == 0)
        let huge = schedule.start(holding: 500)
        #expect(!schedule.canStart(holding: 1), "nothing beside a frame over the budget")
        #expect(schedule.finished(huge, at: huge) == [huge] && schedule.canStart(holding: 500), "one frame always fits")
    }
}
