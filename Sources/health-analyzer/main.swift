// health-analyzer: the command-line front end. All behaviour lives in the library modules;
// this target parses arguments, validates them, runs, and maps errors to exit codes:
// 0 success, 1 failure (bad input, I/O), 64 usage error (EX_USAGE).

Platform.exit(CommandLine.run(Array(CommandLine.arguments.dropFirst())))
