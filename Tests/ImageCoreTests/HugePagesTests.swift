import ImageCore
import Testing

/// `HugePages` is a hint to the kernel: these tests check that it never
/// changes what a buffer holds, whatever its size and alignment, and that
/// `[UInt8](hugePageBacked:)` initializes and fails like the initializer it wraps.
struct HugePagesTests {
    struct FillError: Error, Equatable {}

    @Test(arguments: [0, 1, 4095, HugePages.threshold - 1, HugePages.threshold, 3 * HugePages.threshold + 12_345])
    func hugePageBackedArraysHoldWhatTheInitializerWrote(_ count: Int) {
        let bytes = [UInt8](hugePageBacked: count) { buffer in
            for index in buffer.indices { buffer[index] = UInt8(truncatingIfNeeded: index &* 31 &+ 7) }
        }
        #expect(bytes.count == count)
        #expect(bytes.indices.allSatisfy { bytes[$0] == UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    }

    @Test func aFailingInitializerThrowsItsError() {
        #expect(throws: FillError()) {
            _ = try [UInt8](hugePageBacked: HugePages.threshold) { (_: UnsafeMutableBufferPointer<UInt8>) throws(FillError) in
                throw FillError()
            }
        }
    }

    @Test(arguments: [0, 1, 17, 4096 + 3])
    func advisingAnyRangeLeavesItsContentsAlone(_ misalignment: Int) {
        let count = 3 * HugePages.threshold
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: count + misalignment, alignment: 64)
        defer { storage.deallocate() }
        for index in storage.indices { storage[index] = UInt8(truncatingIfNeeded: index) }
        let start = storage.baseAddress! + misalignment
        for length in [0, 1, HugePages.threshold - 1, HugePages.threshold, count] {
            HugePages.advise(start, byteCount: length)
        }
        #expect(storage.indices.allSatisfy { storage[$0] == UInt8(truncatingIfNeeded: $0) })
    }

    @Test func blankImagesAreBlack() {
        let image = RGBImage(width: 1500, height: 1000)
        #expect(image.pixels.count == 4_500_000 && image.pixels.allSatisfy { $0 == 0 })
    }
}
