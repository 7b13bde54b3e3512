import Testing
import TFLite

/// A model error reads as one sentence naming the values the reader found.
@Suite struct ModelErrorTests {
    @Test(arguments: [
        (ModelError.undefinedPadding(operator: "CONV_2D", value: 7), "malformed model: CONV_2D has padding 7"),
        (.negativeDimension(tensor: 0, dimension: -3), "malformed model: tensor 0 has dimension -3"),
        (.undefinedTensorType(tensor: 2, type: 77), "malformed model: tensor 2 has type 77"),
        (.unsupportedSchemaVersion(2), "unsupported model: schema version 2 (only version 3 is supported)"),
        (.customOperator(index: 4, name: "TFLite_Detection_PostProcess"),
         "unsupported model: operator 4 is the custom operator TFLite_Detection_PostProcess"),
        (.customOperator(index: 4, name: nil), "unsupported model: operator 4 is a custom operator"),
        (.fieldOutsideTable(table: "tensor 3", field: 2, tableSize: 12), "malformed model: field 2 of tensor 3 lies outside its 12-byte table"),
    ])
    func saysWhatWasFound(_ error: ModelError, _ sentence: String) {
        #expect(error.description == sentence)
    }

    @Test func casesWithOtherValuesDiffer() {
        #expect(ModelError.undefinedPadding(operator: "CONV_2D", value: 7) != .undefinedPadding(operator: "CONV_2D", value: 8))
        #expect(ModelError.customOperator(index: 1, name: nil) != .customOperator(index: 1, name: "x"))
    }
}
