// health-benchmarks: throughput and peak RSS of the export reader (and later the report
// pipeline) next to a bare libxml2 SAX2 pass over the same file. See `--help`.
//
// The parent process resolves the input, then re-executes itself once per run of each phase
// (`--phase NAME FILE`, a hidden child mode) and collects each child's one-line result.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

func main(_ arguments: [String]) -> Int32 {
    let invocation: Invocation
    do {
        invocation = try parseArguments(arguments)
    } catch let e as UsageError {
        printError("error: \(e.message). See 'health-benchmarks --help'.")
        return ExitCode.usage
    } catch {
        printError("error: \(error)")
        return ExitCode.usage
    }
    switch invocation {
    case .help:
        print(helpText)
        return ExitCode.success
    case .phase(let phase, let file):
        return runPhaseInThisProcess(phase, file: file)
    case .benchmark(let options):
        do {
            // The children read the thread count from their environment (see `benchmarkThreads`).
            setenv("HEALTH_BENCHMARKS_THREADS", String(options.threads), 1)
            var reports: [Report] = []
            let loadAtStart = loadAverage()
            for input in options.inputs {
                let report = try BenchmarkRun(options: options, input: input, loadAtStart: loadAtStart).run()
                if !options.json { print(report.renderText() + "\n") }
                reports.append(report)
            }
            let growth = RSSGrowth(reports: reports)
            print(options.json ? growth.renderJSON() : growth.renderText())
            return ExitCode.success
        } catch {
            printError("error: \(error)")
            return ExitCode.failure
        }
    }
}

// `--batch` is its own benchmark (BatchBenchmark.swift).
// `--cohort` is its own benchmark (CohortBenchmark.swift).
if CommandLine.arguments.dropFirst().first == "--cohort" {
    exit(CohortBenchmark.main(Array(CommandLine.arguments.dropFirst(2))))
}
if CommandLine.arguments.dropFirst().first == "--batch" {
    exit(BatchBenchmark.main(Array(CommandLine.arguments.dropFirst(2))))
}
// `--distinct`: import and inspect over many distinct sources and devices (DistinctBenchmark.swift).
if CommandLine.arguments.dropFirst().first == "--distinct" {
    exit(DistinctBenchmark.main(Array(CommandLine.arguments.dropFirst(2))))
}
exit(main(Array(CommandLine.arguments.dropFirst())))
