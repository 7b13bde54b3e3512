import TFLite
import Testing

@Test(arguments: [(TensorType.float32, "FLOAT32"), (.float16, "FLOAT16"), (.int8, "INT8")])
func tensorTypesPrintSchemaNames(type: TensorType, name: String) {
    #expect(type.description == name)
}
