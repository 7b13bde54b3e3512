// Every facepipe verb (run, describe, pipelines, export, report, merge, detect),
// with my-pipeline listed after facepipe's own pipelines.
// snippet: main
import FacepipeCLI

await FacepipeCommand.main(adding: [myPipeline])
// end snippet
