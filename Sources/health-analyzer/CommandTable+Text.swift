import Foundation
import HealthArchive
import HealthExport

// What is made from the command table: the help texts, the man page and the completion scripts.

extension CommandTable {
    /// The width help text is wrapped to.
    static let helpWidth = 88
    /// The column an option's help starts at.
    static let optionColumn = 29

    /// `text` split into lines of at most `width` characters at spaces (a longer word stands alone).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// An option's or positional's help, `{cores}` filled in for a terminal or left out (man page).
    static func filled(_ help: String, terminal: Bool) -> String {
        help.replacingOccurrences(of: "{cores}", with: terminal ? ", here \(ExportReader.availableCores)" : "")
    }

    /// Two columns: `label` at 2, the wrapped `help` at `column`.
    static func row(_ label: String, _ help: String, column: Int = optionColumn) -> String {
        let lines = wrap(help, width: helpWidth - column)
        let indent = String(repeating: " ", count: column)
        var out = "  " + label
        if out.count + 1 > column {
            out += "\n" + indent
        } else {
            out += String(repeating: " ", count: column - out.count)
        }
        out += lines.joined(separator: "\n" + indent) + "\n"
        return out
    }

    /// `health-analyzer <command> --help`.
    static func helpText(_ c: CommandSpec) -> String {
        var out = ""
        for (i, u) in c.usage.enumerated() { out += (i == 0 ? "Usage: " : "       ") + "\(toolName) \(u)\n" }
        out += "\n" + c.about.trimmingTrailingNewlines() + "\n"
        if let p = c.positional {
            out += "\n" + row(p.label, filled(p.help, terminal: true), column: max(p.label.count + 4, 11))
        }
        out += "\nOptions:\n"
        for o in c.options { out += row(o.label, filled(o.help, terminal: true)) }
        out += row("-h, --help", "Show this help.")
        if !c.footer.isEmpty { out += "\n" + c.footer.trimmingTrailingNewlines() + "\n" }
        return out
    }

    /// `health-analyzer --help`.
    static var rootHelpText: String {
        var out = "\(toolName) \(toolVersion): \(tagline).\n\nUsage: \(toolName) <command> [options]\n\nCommands:\n"
        let column = (commands.map(\.name.count).max() ?? 0) + 5
        for c in commands { out += row(c.name, c.summary, column: column) }
        out += "\nOptions:\n"
        for o in rootOptions { out += row(o.name == "--help" ? "-h, --help" : o.label, o.help, column: column) }
        out += "\n" + rootFooter.trimmingTrailingNewlines() + "\n"
        out += "\nSee '\(toolName) help <command>' for a command's options.\n"
        return out
    }

    /// `health-analyzer --version`: what a bug report needs.
    static var versionText: String {
        let commit = LinkedLibraries.buildCommit ?? "unknown (built without scripts/stamp-commit)"
        return "\(toolName) \(toolVersion), commit \(commit)\n"
            + "libxml2 \(LinkedLibraries.libxml2), libarchive \(LinkedLibraries.libarchive), "
            + "SQLite \(sqliteLibraryVersion)\n"
    }
}

// MARK: - The man page

extension CommandTable {
    /// Text escaped for troff: backslashes, hyphens as `\-`, and a line's leading `.` or `'`.
    static func troff(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        return escaped.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : String(line)
        }.joined(separator: "\n")
    }

    /// A block printed as it is (no filling): the commands' prepared texts.
    private static func verbatim(_ text: String) -> String {
        ".nf\n" + troff(text.trimmingTrailingNewlines()) + "\n.fi\n"
    }

    /// docs/health-analyzer.1: the same table as `--help`, as a man page (section 1). No date in
    /// it, so that it changes only when the table does.
    static func manPage() -> String {
        var out = ".\\\" Made by `health-analyzer manual` from the command table (CommandTable.swift);\n"
        out += ".\\\" do not edit: run scripts/make-man-page.\n"
        out += ".TH HEALTH\\-ANALYZER 1 \"\" \"\(toolName) \(toolVersion)\" \"User Commands\"\n"
        out += ".SH NAME\n\(troff(toolName)) \\- \(troff(tagline))\n"
        out += ".SH SYNOPSIS\n"
        for c in commands {
            for u in c.usage { out += ".B \(troff(toolName))\n\(troff(u))\n.br\n" }
        }
        out += ".SH DESCRIPTION\n"
        out +=
            troff(
                "\(toolName) streams an Apple Health export (export.zip, export.xml, the unzipped folder, or XML "
                    + "on standard input) and writes CSV files, a Markdown report with SVG charts, and a SQLite "
                    + "archive of the whole history.") + "\n"
        out += ".SH OPTIONS\n"
        for o in rootOptions {
            out += ".TP\n\\fB\(troff(o.name == "--help" ? "-h, --help" : o.label))\\fR\n\(troff(o.help))\n"
        }
        out += ".SH COMMANDS\n"
        for c in commands {
            out += ".SS \(troff(c.name))\n"
            out += verbatim(c.usage.map { "\(toolName) \($0)" }.joined(separator: "\n"))
            out += ".PP\n" + verbatim(c.about)
            if let p = c.positional {
                out += ".TP\n\\fI\(troff(p.label))\\fR\n\(troff(filled(p.help, terminal: false)))\n"
            }
            for o in c.options {
                let value = o.value.map { " \\fI\(troff($0))\\fR" } ?? ""
                out += ".TP\n\\fB\(troff(o.name))\\fR\(value)\n\(troff(filled(o.help, terminal: false)))\n"
            }
            out += ".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nShow the help of \(troff(c.name)).\n"
            if !c.footer.isEmpty { out += ".PP\n" + verbatim(c.footer) }
        }
        out += ".SH EXIT STATUS\n0 success, 1 bad input or I/O failure, 64 usage error.\n"
        out += ".SH SEE ALSO\nREADME.md and docs/ in the source repository.\n"
        return out
    }
}

// MARK: - Shell completions

extension CommandTable {
    /// The completion script for `shell` (`bash`, `zsh`, `fish`), or nil for another shell.
    static func completionScript(_ shell: String) -> String? {
        switch shell {
        case "bash": return bashCompletion()
        case "zsh": return zshCompletion()
        case "fish": return fishCompletion()
        default: return nil
        }
    }

    private static func words(_ completion: ValueCompletion) -> [String] {
        switch completion {
        case .choices(let c): return c
        case .commands: return commands.map(\.name)
        case .none, .file, .directory: return []
        }
    }

    /// The first sentence of a help text, without characters the shells' syntaxes treat specially.
    static func brief(_ help: String) -> String {
        var s = filled(help, terminal: false).replacingOccurrences(of: "e.g. ", with: "e.g.\u{1}")
        if let end = s.range(of: ". ") { s = String(s[..<end.lowerBound]) }
        s = s.replacingOccurrences(of: "\u{1}", with: " ")
        if s.hasSuffix(".") { s.removeLast() }
        // Parenthesised asides go (they hold most of the characters the shells treat specially).
        var depth = 0
        s = String(
            s.filter { c in
                if c == "(" { depth += 1 }
                defer { if c == ")" { depth = max(0, depth - 1) } }
                return depth == 0 && c != ")"
            })
        let unsafe: Set<Character> = ["[", "]", ":", "'", "\"", "`", "$", "\\"]
        s = String(s.map { unsafe.contains($0) ? " " : $0 })
        s = s.replacingOccurrences(of: " ,", with: ",").replacingOccurrences(of: " ;", with: ";")
        s = wrap(s, width: 1000).joined(separator: " ")
        return s.count > 70 ? String(s.prefix(69)) + "…" : s
    }

    /// The bash completion script, from the command table. One function on purpose (about 145
    /// lines): most of it is the text of the script, written as bash reads it, with a few
    /// interpolations from the table.
    private static func bashCompletion() -> String {
        func compgen(_ completion: ValueCompletion) -> String {
            switch completion {
            case .file: return "COMPREPLY=($(compgen -f -- \"$cur\"))"
            case .directory: return "COMPREPLY=($(compgen -d -- \"$cur\"))"
            case .none: return "COMPREPLY=()"
            case .choices, .commands:
                return "COMPREPLY=($(compgen -W \"\(words(completion).joined(separator: " "))\" -- \"$cur\"))"
            }
        }
        let top = commands.map(\.name) + ["-h"] + rootOptions.map(\.name)
        var out = """
            # bash completion for \(toolName), made by '\(toolName) completions bash'.
            _health_analyzer() {
              local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
              if [ "$COMP_CWORD" -eq 1 ]; then
                COMPREPLY=($(compgen -W "\(top.joined(separator: " "))" -- "$cur"))
                return
              fi
              case "${COMP_WORDS[1]}" in

            """
        for c in commands {
            out += "    \(c.name))\n"
            let valued = c.options.filter { $0.value != nil }
            if !valued.isEmpty {
                out += "      case \"$prev\" in\n"
                for o in valued { out += "        \(o.name)) \(compgen(o.completion)); return ;;\n" }
                out += "      esac\n"
            }
            let names = (c.options.map(\.name) + ["--help"]).joined(separator: " ")
            out += "      if [[ \"$cur\" == -* ]]; then\n"
            out += "        COMPREPLY=($(compgen -W \"\(names)\" -- \"$cur\"))\n"
            out += "      else\n"
            out += "        \(c.positional.map { compgen($0.completion) } ?? "COMPREPLY=()")\n"
            out += "      fi\n      ;;\n"
        }
        out += "  esac\n}\ncomplete -o filenames -o bashdefault -F _health_analyzer \(toolName)\n"
        return out
    }

    private static func zshCompletion() -> String {
        func action(_ completion: ValueCompletion) -> String {
            switch completion {
            case .file: return "_files"
            case .directory: return "_files -/"
            case .none: return " "
            case .choices, .commands: return "(\(words(completion).joined(separator: " ")))"
            }
        }
        var out = """
            #compdef \(toolName)
            # zsh completion for \(toolName), made by '\(toolName) completions zsh'.
            _health_analyzer() {
              local -a commands
              commands=(

            """
        for c in commands { out += "    '\(c.name):\(brief(c.summary))'\n" }
        out += "  )\n"
        out += "  if (( CURRENT == 2 )); then\n"
        out += "    _describe -t commands 'command' commands\n"
        out +=
            "    _arguments \(rootOptions.map { "'\($0.name)[\(brief($0.help))]'" }.joined(separator: " ")) '-h[Show help]'\n"
        out += "    return\n  fi\n"
        out += "  local command=${words[2]}\n  shift words\n  (( CURRENT-- ))\n"
        out += "  case $command in\n"
        for c in commands {
            out += "    \(c.name))\n      _arguments -s \\\n"
            for o in c.options {
                let spec: String
                if let value = o.value {
                    let message = value.trimmingCharacters(in: ["<", ">"])
                    spec = "'\(o.name)=[\(brief(o.help))]:\(brief(message)):\(action(o.completion))'"
                } else {
                    spec = "'\(o.name)[\(brief(o.help))]'"
                }
                out += "        \(spec) \\\n"
            }
            out += "        '(- *)'{-h,--help}'[Show this help]'"
            if let p = c.positional {
                let name = brief(p.name.trimmingCharacters(in: ["<", ">"]))
                out += " \\\n        '\(p.repeats ? "*" : "1"):\(name):\(action(p.completion))'"
            }
            out += "\n      ;;\n"
        }
        out += "  esac\n}\n_health_analyzer \"$@\"\n"
        return out
    }

    private static func fishCompletion() -> String {
        var out = "# fish completion for \(toolName), made by '\(toolName) completions fish'.\n"
        let t = toolName
        out += "complete -c \(t) -f\n"
        for o in rootOptions {
            let short = o.name == "--help" ? " -s h" : ""
            out += "complete -c \(t) -n __fish_use_subcommand -l \(o.name.dropFirst(2))\(short) -d '\(brief(o.help))'\n"
        }
        for c in commands {
            out += "complete -c \(t) -n __fish_use_subcommand -a \(c.name) -d '\(brief(c.summary))'\n"
        }
        for c in commands {
            let when = "-n '__fish_seen_subcommand_from \(c.name)'"
            for o in c.options {
                var line = "complete -c \(t) \(when) -l \(o.name.dropFirst(2))"
                if o.value != nil {
                    switch o.completion {
                    case .file: line += " -r -F"
                    case .directory: line += " -x -a '(__fish_complete_directories)'"
                    case .none: line += " -x"
                    case .choices, .commands: line += " -x -a '\(words(o.completion).joined(separator: " "))'"
                    }
                }
                out += line + " -d '\(brief(o.help))'\n"
            }
            out += "complete -c \(t) \(when) -s h -l help -d 'Show this help'\n"
            if let p = c.positional {
                switch p.completion {
                case .file: out += "complete -c \(t) \(when) -F\n"
                case .directory: out += "complete -c \(t) \(when) -x -a '(__fish_complete_directories)'\n"
                case .none: break
                case .choices, .commands:
                    out += "complete -c \(t) \(when) -x -a '\(words(p.completion).joined(separator: " "))'\n"
                }
            }
        }
        return out
    }
}

extension String {
    func trimmingTrailingNewlines() -> String {
        var s = self
        while s.hasSuffix("\n") { s.removeLast() }
        return s
    }

    func trimmingCharacters(in set: Set<Character>) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
