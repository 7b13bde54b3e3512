import Pipelines

/// What one command line runs with: the pipelines it knows (facepipe's own
/// and the ones a tool added) and the name it is called by in help texts.
/// ``FacepipeCommand`` binds both for the whole parse and run; the commands
/// read them here and nowhere else.
enum CommandLineContext {
    @TaskLocal static var registry: PipelineRegistry = .builtIn
    @TaskLocal static var commandName: String = "facepipe"
}
