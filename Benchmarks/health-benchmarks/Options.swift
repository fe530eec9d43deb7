import HealthExport
import SyntheticExport

/// A usage error: printed with a hint, exit code 64 (EX_USAGE).
struct UsageError: Error {
    var message: String
}

/// Exit codes (swift-argument-parser's convention).
enum ExitCode {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 64
}

let helpText = """
    health-benchmarks: how fast and how lean the export reader is, next to a bare libxml2 pass.

    Usage: health-benchmarks --input <export.xml> [--input <export.xml> ...] [options]
           health-benchmarks --generate-days <N>[,<N>...] [--out <file>] [options]

    The phases go in pairs: each phase that has a target next to the phase its target names, the
    others next to the bare pass (for information). Each run is a child process of its own (this
    program re-executed), so that each run's peak RSS is its own. A round runs every pair's two
    phases back to back on the same warm input, A B in odd rounds and B A in even ones; a target
    is judged on the median of the per-round ratios (min and max beside it). Phases:
      libxml2 SAX2 count (bare)                     the baseline: libxml2's push parser fed
                                                    512 KiB at a time, counting start tags
      HealthExport read (1 thread)                  ExportReader().read, batches counted and dropped
      HealthExport read (N threads)                 the parallel read, read(_:threads:makeConsumer:)
      Report end-to-end (1 thread)                  the whole report pipeline: read, analyze, render
      Report end-to-end (N threads)                 the same with N parser threads
      ... from zip (N threads)                      with --zip: the reader and the report from a zip
                                                    of the input (made once beside it as <input>.zip)
      Archive import, new archive (N threads)       health-analyzer import into a new archive in /tmp
      Archive re-import, same export (N threads)    the same export into that archive: adds 0 rows
      Report from the archive, report --db          the archive's records through the report
                                                    pipeline, files written, results stored

    Input:
      --input <file>          An export.xml. It must be well-formed, without control characters,
                              and its DOCTYPE (if any) must parse: the bare pass keeps the DOCTYPE
                              the reader drops, and stops where libxml2 stops.
      --input <file> (again)  Several inputs are measured one after the other; give them small to
                              large: the last section compares the largest's peak RSS with the
                              smallest's.
      --generate-days <N>     Generate an export of N days (1 to 7320) with the package's
                              synthetic generator (SyntheticExport, Europe/Berlin, seed 1,
                              the N days up to 2025-12-31, so none is in the future; about
                              0.82 MB a day, so 1 GB is about 1220 days), then benchmark it.
                              An existing file is reused: the generator is deterministic.
                              A list (150,1800) measures each size, like several --input.
      --out <file>            Where to generate (default: bench-data/export-<N>d-to-2025-12-31.xml
                              in the package root; bench-data/ is not committed).
      --regenerate            Generate even if the file exists.

    Options:
      --repeat <N>            Rounds (default 5); targets are judged on 5 or more.
      --threads <N>           Parser threads of the N-thread phases (default: the cores available).
      --zip                   Also measure from a zip of each input (deflated once, beside it).
      --json                  Print the results as JSON on standard output (progress still goes
                              to standard error).
      --no-warmup             Skip reading the file once before the runs (by default it is read
                              once so that every run finds it in the page cache).
      -h, --help              Show this help.

    Figures: MB = 10^6 bytes (of XML for MB/s, of memory for RSS). Wall time is measured inside
    the child around the phase only (CLOCK_MONOTONIC). Peak RSS is the child's VmHWM (from
    /proc/self/status): its ru_maxrss is also recorded (--json) but on Linux it starts at the
    parent's peak, which a spawned child inherits across exec.

    Busy machine: before judging, the benchmark reads the 1-minute load average when it starts,
    before any work of its own (/proc/loadavg), the CPU time stolen during them (steal in /proc/stat) and the CPU time other
    processes used (the machine's busy time in /proc/stat minus this program's and its children's
    rusage). With a load above 0.25 x cores, others above 10 % or steal above 2 % of the
    machine's CPU time, every target reads "not judged (machine busy)" (with fewer than 5 rounds,
    "not judged (fewer than 5 rounds)"); otherwise PASS or FAIL. This is a measurement, not a
    test: the exit code is 0 unless something failed to run (1) or the arguments were wrong (64).

    Targets (docs/benchmarks.md): HealthExport read (1 thread) >= 0.7 x bare throughput with
             peak RSS < 64 MB; report (N threads) wall <= 0.6 x the bare pass's wall (from a
             zip: <= 1.0 x); report peak RSS <= 128 MB, and <= 16 MB more on the largest input
             than on the smallest (150 and 1800 days); archive import <= 2.0 x report
             (N threads)'s wall time, re-import <= 1 x the import adding 0 rows, <= 60 bytes per
             record on disk, import peak RSS <= 128 MB; report --db <= 0.5 x report (N threads).

    Profiling one phase in this process (no child, one run; phases: bare, reader, report, import, reimport, report-db).
    Valgrind 3.19 cannot read this toolchain's DWARF 5, so profile a copy without debug info:
      objcopy --strip-debug .build/release/health-benchmarks /tmp/hb
      valgrind --tool=callgrind /tmp/hb --phase reader <file>
    Comparing the reader's profile with the bare pass's shows the reader's own cost: the
    libxml2 functions cost nearly the same instructions in both.

    Example:
      swift build -c release --product health-benchmarks
      .build/release/health-benchmarks --generate-days 150,1800 --zip
    """

/// What the command line asks for.
enum Invocation {
    case help
    /// The hidden child mode: `--phase NAME FILE` runs one phase once and prints its result line.
    case phase(Phase, file: String)
    case benchmark(BenchmarkOptions)
}

/// Where the input comes from.
enum InputSource {
    case file(String)
    case generate(days: Int, out: String?, regenerate: Bool)
}

struct BenchmarkOptions {
    /// One or more inputs, measured one after the other (small to large for the RSS growth).
    var inputs: [InputSource]
    var repeats = Judging.minimumRounds
    /// Parser threads of the N-thread phases.
    var threads = ExportReader.availableCores
    /// Also measure from a zip of each input (`<input>.zip`, made once and reused).
    var zip = false
    var json = false
    var warmup = true
}

/// Parses the arguments (without the program name).
func parseArguments(_ arguments: [String]) throws -> Invocation {
    var inputs: [String] = []
    var days: [Int] = []
    var out: String?
    var regenerate = false
    var options = BenchmarkOptions(inputs: [])
    var i = 0

    func value(_ name: String, inline: String?) throws -> String {
        if let inline { return inline }
        guard i < arguments.count else { throw UsageError(message: "option '\(name)' needs a value") }
        i += 1
        return arguments[i - 1]
    }
    func positiveInteger(_ name: String, _ text: String) throws -> Int {
        guard let n = Int(text), n >= 1 else {
            throw UsageError(message: "option '\(name)' needs a whole number of at least 1, not '\(text)'")
        }
        return n
    }

    if arguments.first == "--phase" {
        guard arguments.count == 3 else { throw UsageError(message: "'--phase' needs a phase name and a file") }
        guard let phase = Phase(rawValue: arguments[1]) else {
            throw UsageError(
                message: "unknown phase '\(arguments[1])' (phases: "
                    + Phase.allCases.map(\.rawValue).joined(separator: ", ") + ")")
        }
        return .phase(phase, file: arguments[2])
    }

    while i < arguments.count {
        let argument = arguments[i]
        i += 1
        var name = argument
        var inline: String?
        if argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") {
            name = String(argument[..<eq])
            inline = String(argument[argument.index(after: eq)...])
        }
        switch name {
        case "-h", "--help":
            return .help
        case "--input":
            inputs.append(try value(name, inline: inline))
        case "--generate-days":
            for part in try value(name, inline: inline).split(separator: ",", omittingEmptySubsequences: false) {
                let n = try positiveInteger(name, String(part))
                do {
                    try syntheticConfiguration(days: n).validate()
                } catch {
                    throw UsageError(message: "'--generate-days': \(error)")
                }
                days.append(n)
            }
        case "--threads":
            options.threads = try positiveInteger(name, try value(name, inline: inline))
        case "--zip":
            options.zip = true
        case "--out":
            out = try value(name, inline: inline)
        case "--regenerate":
            regenerate = true
        case "--repeat":
            options.repeats = try positiveInteger(name, try value(name, inline: inline))
        case "--json":
            options.json = true
        case "--no-warmup":
            options.warmup = false
        case "--phase":
            throw UsageError(message: "'--phase' must come first (it is the child mode)")
        default:
            throw UsageError(
                message: argument.hasPrefix("-") ? "unknown option '\(argument)'" : "unexpected argument '\(argument)'")
        }
        if inline != nil, ["--regenerate", "--json", "--no-warmup", "--zip"].contains(name) {
            throw UsageError(message: "option '\(name)' takes no value")
        }
    }

    switch (inputs.isEmpty, days.isEmpty) {
    case (false, true):
        guard out == nil else { throw UsageError(message: "'--out' goes with '--generate-days', not '--input'") }
        guard !regenerate else { throw UsageError(message: "'--regenerate' goes with '--generate-days'") }
        guard !inputs.contains("") else { throw UsageError(message: "'--input' needs a file") }
        options.inputs = inputs.map { .file($0) }
    case (true, false):
        guard out == nil || days.count == 1 else {
            throw UsageError(message: "'--out' goes with one '--generate-days' value, not several")
        }
        options.inputs = days.map { .generate(days: $0, out: out, regenerate: regenerate) }
    case (false, false):
        throw UsageError(message: "give either '--input' or '--generate-days', not both")
    case (true, true):
        throw UsageError(message: "missing input: give '--input <export.xml>' or '--generate-days <N>'")
    }
    return .benchmark(options)
}

/// The options of a benchmark mode (`--batch`, `--cohort`, `--distinct`): each is `--name value`,
/// the last of a name counts; `-h` or `--help` asks for the mode's help.
struct ModeOptions {
    private var values: [String: String] = [:]

    /// Reads `arguments` (those after the mode's flag); nil where they ask for help.
    /// - Throws: `UsageError` for an option without its value or one not in `names`.
    init?(_ arguments: [String], mode: String, names: Set<String>) throws(UsageError) {
        var i = 0
        while i < arguments.count {
            let name = arguments[i]
            if name == "-h" || name == "--help" { return nil }
            guard i + 1 < arguments.count else {
                throw UsageError(message: "'\(name)' needs a value. See 'health-benchmarks --\(mode) --help'.")
            }
            guard names.contains(name) else {
                throw UsageError(message: "unknown option '\(name)'. See 'health-benchmarks --\(mode) --help'.")
            }
            values[name] = arguments[i + 1]
            i += 2
        }
    }

    /// The value of `name`, or `fallback` where it is not given.
    func text(_ name: String, or fallback: String) -> String { values[name] ?? fallback }

    /// The whole number (1 or more) of `name`, or `fallback` where it is not given.
    func wholeNumber(_ name: String, or fallback: Int) throws(UsageError) -> Int {
        guard let value = values[name] else { return fallback }
        guard let n = Int(value), n >= 1 else {
            throw UsageError(message: "'\(name)' takes a whole number from 1, not '\(value)'")
        }
        return n
    }

    /// The comma-separated whole numbers (1 or more) of `name`, in the order given, or `fallback`.
    func wholeNumbers(_ name: String, or fallback: [Int]) throws(UsageError) -> [Int] {
        guard let value = values[name] else { return fallback }
        let list = value.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
        guard list.allSatisfy({ ($0 ?? 0) >= 1 }) else {
            throw UsageError(message: "'\(name)' takes whole numbers from 1 separated by commas, not '\(value)'")
        }
        return list.map { $0! }
    }
}
