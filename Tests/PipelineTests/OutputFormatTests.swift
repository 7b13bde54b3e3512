import Foundation
import ImageCore
import Pipeline
import Testing

@Suite struct OutputFormatTests {
    struct CSVCase: Sendable, CustomTestStringConvertible {
        let field: String
        let encoded: String
        var testDescription: String { field.debugDescription }
    }

    @Test(arguments: [
        CSVCase(field: "plain.jpg", encoded: "plain.jpg"),
        CSVCase(field: "a,b.jpg", encoded: "\"a,b.jpg\""),
        CSVCase(field: "say \"hi\".jpg", encoded: "\"say \"\"hi\"\".jpg\""),
        CSVCase(field: "line\nbreak", encoded: "\"line\nbreak\""),
        CSVCase(field: "", encoded: ""),
    ])
    func manifestFieldsFollowRFC4180(_ c: CSVCase) async throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let items = [entry("x.tar", 0, c.field, makePPM(square: (x: 1, y: 1, side: 3)))]
        _ = try await run(redSquarePipeline(), [memoryInput("x.tar", items)], out: out)
        let text = try String(contentsOf: out.appendingPathComponent("manifest.csv"), encoding: .utf8)
        let line = text.components(separatedBy: "\r\n")[1...].joined(separator: "\r\n")
        #expect(line.hasPrefix("x.tar,\(c.encoded),0,"))
        #expect(try manifestRows(out)[0][1] == c.field, "round trip")
    }

    @Test func perImageJSONParsesAndHasBothCoordinateConventions() async throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let items = [entry("x.tar", 0, "face.ppm", makePPM(width: 20, height: 10, square: (x: 2, y: 4, side: 4)))]
        _ = try await run(redSquarePipeline(), [memoryInput("x.tar", items)], out: out)
        let data = try Data(contentsOf: out.appendingPathComponent("faces/x.tar/face.ppm.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["width"] as? Int == 20)
        let faces = try #require(json["faces"] as? [[String: Any]])
        let face = try #require(faces.first)
        #expect(face["box_px"] as? [Double] == [2, 4, 4, 4])
        // Vision: origin bottom-left, normalized: y = 1 − (4 + 4) / 10 = 0.2.
        let vision = try #require(face["box_vision"] as? [Double])
        #expect(abs(vision[0] - 0.1) < 1e-6 && abs(vision[1] - 0.2) < 1e-6 && abs(vision[2] - 0.2) < 1e-6 && abs(vision[3] - 0.4) < 1e-6)
        let points = try #require(face["points"] as? [String: Any])
        let corners = try #require(points["corners"] as? [String: Any])
        #expect((corners["px"] as? [[Double]])?.first == [2, 4])
        #expect((corners["vision"] as? [[Double]])?.first == [0.1, 0.6])
    }

    @Test func orientMatchesTheEXIFDefinitions() throws {
        // Stored 3×2: values 1…6 in reading order.
        let stored = RGBImage(width: 3, height: 2, pixels: (1...6).flatMap { [UInt8($0), 0, 0] })
        func upright(_ o: ExifOrientation) throws -> [UInt8] {
            let frame = Frame<Phase.Decoded>(image: stored, record: {
                var r = EntryRecord(archive: "a", entry: "e", index: 0)
                r.exifOrientation = o.rawValue
                return r
            }())
            let out = try Orient().process(frame, context: StageContext(shared: SharedResources(), worker: 0))
            return stride(from: 0, to: out.image.pixels.count, by: 3).map { out.image.pixels[$0] }
        }
        #expect(try upright(.topLeft) == [1, 2, 3, 4, 5, 6])
        #expect(try upright(.topRight) == [3, 2, 1, 6, 5, 4])
        #expect(try upright(.bottomRight) == [6, 5, 4, 3, 2, 1])
        #expect(try upright(.bottomLeft) == [4, 5, 6, 1, 2, 3])
        #expect(try upright(.leftTop) == [1, 4, 2, 5, 3, 6])
        #expect(try upright(.rightTop) == [4, 1, 5, 2, 6, 3])
        #expect(try upright(.rightBottom) == [6, 3, 5, 2, 4, 1])
        #expect(try upright(.leftBottom) == [3, 6, 2, 5, 1, 4])
    }
}
