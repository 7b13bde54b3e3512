import FacepipeCLI
await FacepipeCommand.main()
