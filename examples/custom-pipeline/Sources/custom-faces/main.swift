import FacepipeCLI

// Every facepipe verb (run, describe, pipelines, export, report, merge, detect),
// with my-pipeline listed after facepipe's own pipelines.
await FacepipeCommand.main(adding: [myPipeline])
