import HealthExport

// The one table of the tool's commands and options. The argument scanner, every `--help`, the
// shell completions (`completions bash|zsh|fish`) and the man page (docs/health-analyzer.1,
// `health-analyzer manual`) are made from it; a new command or option is one declaration here.

/// What a value (of an option or a positional) completes to in a shell.
enum ValueCompletion: Equatable {
    case none
    case file
    case directory
    case choices([String])
    /// The names of the commands in `CommandTable.commands`.
    case commands
}

/// One option: `--out <dir>`, or a flag (`value == nil`).
struct OptionSpec {
    var name: String
    /// The value's placeholder, `<dir>`; nil for a flag.
    var value: String?
    /// One paragraph (wrapped when printed). `{cores}` becomes ", here N" on a terminal and
    /// nothing in the man page.
    var help: String
    var completion: ValueCompletion = .none

    /// `--out <dir>` or `--quiet`.
    var label: String { value.map { "\(name) \($0)" } ?? name }
}

/// A positional argument: `<input>`, `<input>...`.
struct PositionalSpec {
    var name: String
    var help: String
    var repeats = false
    var completion: ValueCompletion = .file

    var label: String { repeats ? "\(name)..." : name }
}

/// One command: what `health-analyzer <name> --help` prints and what its scanner accepts.
struct CommandSpec {
    var name: String
    /// One line for the command list of `health-analyzer --help`.
    var summary: String
    /// Usage lines after `health-analyzer `.
    var usage: [String]
    /// Text printed as it is (already wrapped to 88 columns), between the usage and the options.
    var about: String
    var positional: PositionalSpec?
    var options: [OptionSpec]
    /// Printed as it is after the options (examples, exit codes).
    var footer: String = ""

    /// Every option the scanner accepts: the declared ones and `-h, --help`.
    var allOptionNames: [String] { options.map(\.name) + ["--help"] }

    func option(_ name: String) -> OptionSpec? { options.first { $0.name == name } }
}

/// Options several commands share, declared once.
enum SharedOption {
    static let threads = OptionSpec(
        name: "--threads", value: "N",
        help: "Parser threads (default: the cores available{cores}). Every output is the same for any N.")
    /// `report`'s: with `--db` the threads read the archive in parts.
    static let reportThreads = OptionSpec(
        name: "--threads", value: "N",
        help:
            "Parser threads (default: the cores available{cores}; with --db, threads reading the archive)."
            + " Every output is the same for any N.")
    static func quiet(_ help: String) -> OptionSpec { OptionSpec(name: "--quiet", help: help) }
    /// `report`'s and `batch`'s output folder.
    static let out = OptionSpec(
        name: "--out", value: "<dir>", help: "Output folder (created if missing). Required.", completion: .directory)
    static let inputHelp =
        "export.zip (read in place), export.xml, the unzipped folder, or - for XML on standard input."
}

enum CommandTable {
    static let toolName = "health-analyzer"
    static let tagline = "numbers you can trust from an Apple Health export"

    /// Every command, in the order the root help lists them.
    static let commands: [CommandSpec] = [
        inspect, report, importCommand, batch, cohort, mcp, completions, manual, help,
    ]

    static func command(_ name: String) -> CommandSpec? { commands.first { $0.name == name } }

    /// The root's own options (`health-analyzer --version`).
    static let rootOptions: [OptionSpec] = [
        OptionSpec(name: "--help", help: "Show help (also: health-analyzer help <command>)."),
        OptionSpec(
            name: "--version",
            help: "Show the version, the commit it was built from and the libxml2, libarchive and SQLite in use."),
    ]

    static let rootFooter = """
        <input> is export.zip (read in place), export.xml, the unzipped folder, or - for XML
        on standard input.

        Exit codes: 0 success, 1 bad input or I/O failure, 64 usage error.
        """

    static let inspect = CommandSpec(
        name: "inspect",
        summary: "Show what an export (or an archive) contains.",
        usage: ["inspect <input> [options]", "inspect --db <archive> [options]"],
        about: """
            Show what an Apple Health export contains: export date and version, locale, the date
            range, records per type (with units) and per source (with the device model), workouts
            per activity type, ActivitySummary days, the most frequent HKTimeZone, and every
            diagnostic (skipped records, removed control characters) with its count.
            """,
        positional: PositionalSpec(name: "<input>", help: SharedOption.inputHelp),
        options: [
            SharedOption.threads,
            OptionSpec(
                name: "--db", value: "<file>",
                help: "Summarise a SQLite archive made by 'import' instead: the exports imported with their "
                    + "dates, the date range, counts per type and source.",
                completion: .file),
            OptionSpec(
                name: "--json",
                help: "Write the same as one JSON object (keys in docs/commands.md, inspect), for scripts."),
            SharedOption.quiet("No progress line (what inspect found is still printed)."),
        ],
        footer: """
            Example:
              health-analyzer inspect samples/export.zip
            """)

    static let report = CommandSpec(
        name: "report",
        summary: "Write the CSV files, report.md with its charts, schema.sql and report.json.",
        usage: ["report <input> --out <dir> [options]", "report --db <archive> --out <dir> [options]"],
        about: """
            Read an Apple Health export once, streaming, and write into <dir>:
              daily.csv        one row per local day: steps, distance_km, active_energy_kcal,
                               move/exercise/stand ring values and goals, rings_closed, heart
                               rate (time-weighted), HRV, respiratory rate, blood oxygen, wrist
                               temperature, blood pressure, sleep, workouts, and the day's
                               ActivitySummary values
              weekly.csv       one row per week: totals, per-day averages, ring-closed days,
                               change against the previous week, 4-week rolling steps/day,
                               Move kcal, sleep per night, body mass, workouts by activity
              monthly.csv      the same per calendar month
              stand_hours.csv  one row per local day and hour with a stand-hour record
              sources.csv      per type and source: samples, raw total, counted total
              sleep.csv        one row per night (by wake-up date) and per day with naps
              workouts.csv     one row per workout, duplicates from a second source marked
              trends.csv       per measure: mean of the last 90 and 365 days, up/down/steady
              report.md        the overview to read first, with chart_*.svg beside it
              schema.sql       typed tables for the CSV files (DuckDB, SQLite)
              report.json      how the report was made: tool, input, zone, source order, period
            The files appear together or not at all: they are written into a hidden folder
            beside <dir> and swapped with it in one step (other files in <dir> are kept).
            A workout's route file missing from the export is a warning, not an error.
            """,
        positional: PositionalSpec(name: "<input>", help: SharedOption.inputHelp),
        options: [
            SharedOption.out,
            OptionSpec(
                name: "--tz", value: "<IANA zone>",
                help: "One zone for all local days and hours, e.g. Europe/Berlin (the Health app's charts). "
                    + "Default: days follow the person. Zones per period from the export's HKTimeZone values "
                    + "and their instants; a change to a new zone takes effect at the new zone's local "
                    + "midnight of its first day. Without HKTimeZone: of the IANA zones with the export's "
                    + "offset at export time, the one whose days agree best with the ActivitySummary (and "
                    + "HRV beat times); $TZ only where the export cannot decide; else the export-time "
                    + "offset (with a warning)."),
            OptionSpec(
                name: "--source-order", value: "<a,b,...>",
                help: "Source names in priority order, highest first; other sources follow in the default "
                    + "order (manual entries, Apple Watch, iPhone, other apps)."),
            OptionSpec(name: "--no-dedup", help: "Plain sums over all sources, for comparison."),
            OptionSpec(
                name: "--week-start", value: "<monday|sunday>",
                help: "monday: ISO 8601 weeks (default); sunday: US weeks.",
                completion: .choices(["monday", "sunday"])),
            OptionSpec(name: "--from", value: "<YYYY-MM-DD>", help: "First local day to report (inclusive)."),
            OptionSpec(name: "--to", value: "<YYYY-MM-DD>", help: "Last local day to report (inclusive)."),
            OptionSpec(
                name: "--week", value: "last", help: "Only the last complete week (for cron jobs).",
                completion: .choices(["last"])),
            SharedOption.reportThreads,
            OptionSpec(
                name: "--db", value: "<file>",
                help: "Report over a SQLite archive made by 'import' instead of an export (no <input>); also "
                    + "writes daily_results and weekly_results tables into the archive.",
                completion: .file),
            SharedOption.quiet(
                "Print nothing on success, warnings included (they stay in report.md's Notes and report.json); "
                    + "errors still print (for cron)."),
            OptionSpec(
                name: "--summary",
                help: "Print a plain-text digest (at most 30 lines of 72 columns): the period, its means against "
                    + "the 90-day means, rings, sleep, the trends that changed direction since last week. With cron's "
                    + "MAILTO, the mail."),
        ],
        footer: """
            Examples:
              health-analyzer report samples/export.zip --out reports
              health-analyzer report export.zip --out weekly --week last --quiet --summary   (cron)
            """)

    static let importCommand = CommandSpec(
        name: "import",
        summary: "Add exports to a SQLite archive of the whole history.",
        usage: ["import <input>... --db <file> [options]"],
        about: """
            Add Apple Health exports to a SQLite archive of the whole history (created if
            missing). Each input is one transaction: all of it is in the archive, or, when it
            cannot be read or the import is killed, none of it. A record already in the archive
            (same type, source, start and end instants, value and unit) is not added again;
            records a later export no longer holds stay. One line per input: records read, new,
            already present.
            """,
        positional: PositionalSpec(
            name: "<input>",
            help: "export.zip (read in place), export.xml, the unzipped folder, - for XML on standard input, "
                + "or a folder of exports (its .zip files and subfolders).",
            repeats: true),
        options: [
            OptionSpec(name: "--db", value: "<file>", help: "The archive (SQLite). Required.", completion: .file),
            SharedOption.quiet("Print only errors (for cron)."),
            SharedOption.threads,
        ],
        footer: """
            Exit codes: 0 all inputs imported, 1 any input or the archive failed (the other
            inputs are still imported), 64 usage error.

            Example:
              health-analyzer import ~/Health/export.zip --db ~/Health/health.sqlite
            """)

    /// `report`'s per-person analysis options, which `batch` takes for every person.
    static let perPersonOptionNames = [
        "--tz", "--source-order", "--no-dedup", "--week-start", "--from", "--to", "--week",
    ]

    static let batch = CommandSpec(
        name: "batch",
        summary: "Every person's reports of a folder or manifest of exports, then the cohort tables.",
        usage: ["batch <manifest.csv | folder> --out <dir> [options]"],
        about: """
            Write each person's reports into <dir>/person=<id>/, exactly what
            'report <export> --out <dir>/person=<id>' writes (all or nothing per person), then,
            without --shard, the cohort tables into <dir>/cohort/ (see 'cohort --help').
              <manifest.csv>  CSV with the header 'person,export'; export paths are relative
                              to the manifest's folder (or absolute): a zip, an XML file or a
                              folder.
              <folder>        Its entries <id>.zip, <id>.xml or <id>/ (an unzipped export).
            Person ids: 1 to 64 characters of A-Z a-z 0-9 . _ -, not starting with a dot. A bad
            or repeated id, a missing column or an empty manifest stops before any work.
            A person whose export cannot be read fails alone (the reason goes into
            <dir>/.status/<id>.json and people.csv; an earlier report stays). A rerun skips
            every person whose export (path, size, modification time, a hash of its first and
            last MiB), options and tool version are unchanged since their last successful run.
            """,
        positional: PositionalSpec(name: "<manifest.csv | folder>", help: "The people and their exports."),
        options: [
            SharedOption.out,
            OptionSpec(
                name: "--shard", value: "<K/N>",
                help: "Only the people whose id hashes to K of N (FNV-1a 64 of the id's UTF-8 bytes, modulo N); "
                    + "no cohort at the end."),
            OptionSpec(
                name: "--jobs", value: "<N>",
                help: "People at once (default: the cores available{cores}); parser threads per person: cores / jobs."),
            OptionSpec(
                name: "--archives", value: "<folder>",
                help: "Also import each export into <folder>/<id>.sqlite and report from that archive (the whole "
                    + "history).",
                completion: .directory),
            OptionSpec(name: "--force", help: "Redo every person, unchanged or not."),
            OptionSpec(
                name: "--prune",
                help: "Remove the people no listing names any more (person folder, status, archive); print each."),
            SharedOption.quiet("Print only the failures."),
        ] + report.options.filter { perPersonOptionNames.contains($0.name) },
        footer: """
            Standard output ends with '<n> done, <n> unchanged, <n> failed'; each person's line
            is flushed as the person ends. One batch per --out (per shard): a second one is
            refused (lock file <dir>/.batch.lock). SIGTERM and SIGINT stop it cleanly.
            Exit codes: 0 every person done or unchanged; 2 done, but some people failed
            (see people.csv); 3 none failed, but the cohort is incomplete; 1 the run could
            not start or finish (input refused or empty, output not writable, another batch
            on the folder, cohort not written); 64 usage error; 128+n ended by signal n.
            See docs/batch.md.
            """)

    static let cohort = CommandSpec(
        name: "cohort",
        summary: "The people of a batch side by side in <dir>/cohort/.",
        usage: ["cohort <dir> [options]"],
        about: """
            Put the people of a batch's output folder side by side in <dir>/cohort/ (written as
            one set): daily.csv, weekly.csv, monthly.csv, sleep.csv and workouts.csv in long
            form with 'person' first (rows by person, then date; no source or device names),
            people.csv (outcome, message, export, export date, first and last day, days with
            data, records, tool version per person; no wall time, exports absolute and
            resolved), schema.sql, load-duckdb.sql, load-sqlite.sql, and report.md with
            chart_spread.svg: people done and failed, days
            covered, and the spread across people (median, quartiles) of steps per day,
            ring-closure rates, sleep per night and resting heart rate. The same person folders
            give the same bytes.
            """,
        positional: PositionalSpec(name: "<dir>", help: "The --out folder of a batch.", completion: .directory),
        options: [SharedOption.quiet("Print nothing on success.")],
        footer: """
            Exit codes: 0 written, 3 written but incomplete (people listed by a batch without a
            result: rows 'missing'), 1 failure, 64 usage error. See docs/batch.md.
            """)

    static let mcp = CommandSpec(
        name: "mcp",
        summary: "Serve an archive's numbers to an AI assistant (Model Context Protocol).",
        usage: ["mcp --db <archive> [options]"],
        about: """
            A Model Context Protocol server over standard input and output for an MCP client (an
            AI assistant on this machine): tools that return the reports' numbers for a window
            of local days (summary, daily, weekly, monthly, sleep, workouts, compare) and one
            read-only SQL query, and resources with the archive's schema and the docs pages that
            define the columns. The archive is opened read-only and never changed; the numbers
            are computed on the first call and again after an import. What the tools return is
            sent to whatever model the client uses. See docs/mcp.md.
            """,
        positional: nil,
        options: [
            OptionSpec(
                name: "--db", value: "<file>", help: "The archive made by 'import'. Required.", completion: .file),
            OptionSpec(
                name: "--show-source-names",
                help: "Return source and device names (they hold first names, such as \"Alex's Apple Watch\"); "
                    + "left out by default. Nothing from <Me> is ever returned."),
            OptionSpec(
                name: "--threads", value: "N",
                help: "Threads reading the archive for the analysis (default: the cores available{cores}). The "
                    + "numbers are the same for any N."),
        ],
        footer: """
            Exit codes: 0 standard input ended, 1 the archive is missing or damaged (the message
            report --db gives), 64 usage error.

            Example (in an MCP client's configuration: command and args):
              health-analyzer mcp --db ~/Health/health.sqlite
            """)

    static let completions = CommandSpec(
        name: "completions",
        summary: "Print a completion script for bash, zsh or fish.",
        usage: ["completions <shell>"],
        about: """
            Print a shell completion script for health-analyzer's commands and options.
            """,
        positional: PositionalSpec(
            name: "<shell>", help: "bash, zsh or fish.", completion: .choices(["bash", "zsh", "fish"])),
        options: [],
        footer: """
            Examples:
              health-analyzer completions bash > ~/.local/share/bash-completion/completions/health-analyzer
              health-analyzer completions zsh > ~/.zfunc/_health-analyzer
              health-analyzer completions fish > ~/.config/fish/completions/health-analyzer.fish
            """)

    static let manual = CommandSpec(
        name: "manual",
        summary: "Print the man page (troff), as docs/health-analyzer.1 holds it.",
        usage: ["manual"],
        about: """
            Print the man page made from the same table as --help and the completions
            (docs/health-analyzer.1 is its output; scripts/make-man-page rewrites it).
            """,
        positional: nil, options: [],
        footer: """
            Example:
              health-analyzer manual | man -l -
            """)

    static let help = CommandSpec(
        name: "help",
        summary: "Show the help of a command.",
        usage: ["help [<command>]"],
        about: "Show the help of <command>, or the general help without one.\n",
        positional: PositionalSpec(
            name: "<command>", help: "One of the commands above.",
            completion: .commands),
        options: [])
}
