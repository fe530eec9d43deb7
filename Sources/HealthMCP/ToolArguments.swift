import HealthExport

/// A bad argument of a tool call: a one-line message naming the argument and what was wrong,
/// returned as a tool error (`isError: true`).
struct ToolError: Error {
    var message: String
}

/// The `arguments` object of one tool call, read argument by argument.
struct ToolArguments {
    let tool: String
    let values: [(String, JSON)]

    /// - Throws: `ToolError` for an argument the tool does not take.
    init(tool: String, _ arguments: JSON, accepted: [String]) throws(ToolError) {
        self.tool = tool
        guard case .object(let pairs) = arguments else { throw ToolError(message: "arguments must be an object") }
        values = pairs
        for (name, _) in pairs where !accepted.contains(name) {
            let takes = accepted.isEmpty ? "takes no arguments" : "takes " + accepted.joined(separator: ", ")
            throw ToolError(message: "\(name): \(tool) has no argument '\(name)'; it \(takes)")
        }
    }

    subscript(name: String) -> JSON? {
        guard let value = values.first(where: { $0.0 == name })?.1 else { return nil }
        return value == .null ? nil : value
    }

    /// An ISO date `YYYY-MM-DD`, or nil when the argument is absent.
    /// - Throws: `ToolError` for anything but such a date.
    func date(_ name: String) throws(ToolError) -> CivilDate? {
        guard let value = self[name] else { return nil }
        guard case .string(let text) = value else {
            throw ToolError(message: "\(name): expected a date YYYY-MM-DD as a string, not \(value.text)")
        }
        guard let date = CivilDate(text) else {
            throw ToolError(message: "\(name): '\(text)' is not a date YYYY-MM-DD")
        }
        return date
    }

    /// A list of strings, or nil when the argument is absent.
    func strings(_ name: String) throws(ToolError) -> [String]? {
        guard let value = self[name] else { return nil }
        guard case .array(let items) = value else {
            throw ToolError(message: "\(name): expected a list of column names, not \(value.text)")
        }
        var out: [String] = []
        for item in items {
            guard case .string(let s) = item else {
                throw ToolError(message: "\(name): expected column names as strings, not \(item.text)")
            }
            out.append(s)
        }
        return out
    }

    /// A string (required when `required`).
    func string(_ name: String, required: Bool) throws(ToolError) -> String? {
        guard let value = self[name] else {
            if required { throw ToolError(message: "\(name): missing; \(tool) needs it") }
            return nil
        }
        guard case .string(let s) = value else {
            throw ToolError(message: "\(name): expected a string, not \(value.text)")
        }
        return s
    }
}

/// A window of local days, both ends included.
struct DayWindow {
    var from: CivilDate
    var to: CivilDate

    func meets(_ first: CivilDate, _ last: CivilDate) -> Bool { first <= to && last >= from }

    /// The window of `fromName` and `toName` in `arguments`; an end not given is the data's.
    /// - Throws: `ToolError` for a bad date, `from` after `to`, or a window that misses the data
    ///   (`first` … `last`, the reported days).
    static func read(
        _ arguments: ToolArguments, from fromName: String, to toName: String, data: (first: CivilDate, last: CivilDate)
    ) throws(ToolError) -> DayWindow {
        let from = try arguments.date(fromName)
        let to = try arguments.date(toName)
        let window = DayWindow(
            from: from ?? min(data.first, to ?? data.first), to: to ?? max(data.last, from ?? data.last))
        if let from, let to, from > to {
            throw ToolError(message: "\(fromName): \(from) is after \(toName) (\(to)); give \(fromName) <= \(toName)")
        }
        guard window.meets(data.first, data.last) else {
            let name = from.map { $0 > data.last ? fromName : toName } ?? toName
            throw ToolError(
                message: "\(name): the window \(window.from) to \(window.to) is outside the data, which has days from"
                    + " \(data.first) to \(data.last)")
        }
        return window
    }
}
