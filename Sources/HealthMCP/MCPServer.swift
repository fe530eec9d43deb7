// The Model Context Protocol over standard input and output (docs/mcp.md): JSON-RPC 2.0, one
// message per line, the lifecycle (initialize, then operation), and the methods a server of
// tools and resources answers. What the tools do lives in `ArchiveService`.

/// A tool's answer to `tools/call`: its structured content and the same as text, or a tool
/// error (`isError: true`) with a one-line message.
public struct ToolResult: Sendable {
    public var structured: JSON?
    public var text: String
    public var isError: Bool

    public static func success(_ structured: JSON, text: String) -> ToolResult {
        ToolResult(structured: structured, text: text, isError: false)
    }

    public static func failure(_ message: String) -> ToolResult {
        ToolResult(structured: nil, text: message, isError: true)
    }
}

/// What the server serves: tools and resources. `ArchiveService` is the one the CLI runs.
public protocol MCPService: AnyObject {
    /// The `tools` of `tools/list`, each with `name`, `description`, `inputSchema`, `outputSchema`.
    var tools: [JSON] { get }
    /// The result of calling `name`, or nil when there is no such tool.
    func callTool(_ name: String, arguments: JSON, log: MCPLog) -> ToolResult?
    /// The `resources` of `resources/list`.
    var resources: [JSON] { get }
    /// The `contents` entry of resource `uri`, or nil when there is none.
    func readResource(_ uri: String) -> JSON?
    /// The server's `instructions` for the client's model.
    var instructions: String { get }
    /// How long a client of the stateless revision may keep resource `uri` once read.
    func cacheHint(forResource uri: String) -> CacheHint
}

/// Log messages: to standard error always, and to the client as `notifications/message` at or
/// above the level it set with `logging/setLevel`.
public final class MCPLog {
    /// The syslog levels of the specification, lowest first.
    static let levels = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
    var clientLevel: Int?
    let send: (JSON) -> Void

    init(send: @escaping (JSON) -> Void) { self.send = send }

    /// Logs `message` at `level` (one of `levels`).
    public func log(_ level: String, _ message: String) {
        MCPPlatform.writeStandardError("health-analyzer mcp: \(level): \(message)\n")
        guard let threshold = clientLevel, let rank = Self.levels.firstIndex(of: level), rank >= threshold else {
            return
        }
        send(
            .object([
                ("jsonrpc", .string("2.0")), ("method", .string("notifications/message")),
                (
                    "params",
                    .object([
                        ("level", .string(level)), ("logger", .string("health-analyzer")), ("data", .string(message)),
                    ])
                ),
            ]))
    }
}

/// JSON-RPC 2.0 error codes (and MCP's for a missing resource).
enum RPCError {
    static let parseError = -32700
    static let invalidRequest = -32600
    static let methodNotFound = -32601
    static let invalidParams = -32602
    static let internalError = -32603
    static let resourceNotFound = -32002
}

/// The server: reads messages from standard input until its end, answers each request on
/// standard output, and writes nothing else there.
public final class MCPServer {
    /// The protocol revisions the server speaks through the `initialize` handshake, newest first.
    public static let protocolVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    /// The stateless revisions (no handshake, every request carries its revision in `_meta`),
    /// newest first.
    public static let statelessVersions = ["2026-07-28"]
    /// The longest message read; a longer line is discarded with an Invalid Request error.
    public static let maximumMessageBytes = 4 << 20

    let service: MCPService
    let name: String
    let version: String
    var initialized = false
    /// Which protocol era this connection speaks; decided by the client's first request.
    var era = Era.undecided
    lazy var log = MCPLog { [unowned self] message in self.send(message) }
    /// False once standard output is gone (the client closed it): the server stops.
    var outputOpen = true

    public init(service: MCPService, name: String, version: String) {
        self.service = service
        self.name = name
        self.version = version
    }

    /// Serves until standard input ends (or standard output is closed); a partial last line
    /// (no line feed before the end) is not a message and is dropped.
    public func run() {
        MCPPlatform.ignoreBrokenPipe()
        var reader = LineReader(maximumBytes: Self.maximumMessageBytes)
        while outputOpen, let line = reader.next() {
            switch line {
            case .tooLong(let bytes):
                send(
                    errorResponse(
                        id: .null, RPCError.invalidRequest,
                        "a message of more than \(bytes) bytes; messages are at most \(Self.maximumMessageBytes) bytes")
                )
            case .line(let bytes):
                handle(bytes)
            }
        }
        if reader.droppedPartial { log.log("notice", "standard input ended inside a message; it was dropped") }
    }

    /// Handles one line (one message) and answers it.
    func handle(_ bytes: ArraySlice<UInt8>) {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        let message: JSON
        do {
            message = try JSON.parse(bytes)
        } catch {
            send(errorResponse(id: .null, RPCError.parseError, "Parse error: \(error)"))
            return
        }
        if case .array = message {
            send(
                errorResponse(
                    id: .null, RPCError.invalidRequest,
                    "Invalid Request: JSON-RPC batches are not supported (MCP removed them in revision 2025-06-18);"
                        + " send one message per line"))
            return
        }
        guard case .object = message else {
            send(errorResponse(id: .null, RPCError.invalidRequest, "Invalid Request: a message is a JSON object"))
            return
        }
        let id = message["id"]
        if let id {
            switch id {
            case .string, .number: break
            default:
                send(
                    errorResponse(
                        id: .null, RPCError.invalidRequest, "Invalid Request: id must be a string or a number"))
                return
            }
        }
        guard message["jsonrpc"] == .string("2.0") else {
            if let id {
                send(errorResponse(id: id, RPCError.invalidRequest, "Invalid Request: jsonrpc must be \"2.0\""))
            } else {
                send(errorResponse(id: .null, RPCError.invalidRequest, "Invalid Request: jsonrpc must be \"2.0\""))
            }
            return
        }
        guard let methodValue = message["method"] else {
            // A response to a request of ours (the server sends none) or nothing at all.
            if id == nil || (message["result"] == nil && message["error"] == nil) {
                send(errorResponse(id: id ?? .null, RPCError.invalidRequest, "Invalid Request: no method"))
            }
            return
        }
        guard case .string(let method) = methodValue else {
            send(errorResponse(id: id ?? .null, RPCError.invalidRequest, "Invalid Request: method must be a string"))
            return
        }
        let params = message["params"] ?? .object([])
        guard case .object = params else {
            if let id {
                send(errorResponse(id: id, RPCError.invalidParams, "Invalid params: params must be an object"))
            }
            return
        }
        guard let id else {
            notification(method, params)
            return
        }
        send(request(id: id, method: method, params: params))
    }

    /// Notifications: the client's `initialized`; every other one is ignored.
    func notification(_ method: String, _ params: JSON) {
        if method == "notifications/initialized" { log.log("debug", "the client is initialized") }
    }

    /// The response to one request. The connection's era is decided by its first request
    /// (docs/mcp.md §7.1): a request other than `initialize` whose `_meta` carries
    /// the stateless envelope's protocol version opens a stateless connection; anything else
    /// opens a handshake one. A request of the other era is refused afterwards.
    func request(id: JSON, method: String, params: JSON) -> JSON {
        let enveloped = params["_meta"]?[Envelope.protocolVersion] != nil
        if era == .undecided { era = method != "initialize" && enveloped ? .stateless : .handshake }
        if era == .stateless { return statelessRequest(id: id, method: method, params: params) }
        if enveloped && method != "initialize" {
            return errorResponse(
                id: id, RPCError.invalidRequest,
                "Invalid Request: this connection began with the initialize handshake; a request carrying the"
                    + " stateless _meta envelope is not accepted on it")
        }
        if method == "initialize" { return initialize(id: id, params: params) }
        if method == "ping" { return response(id: id, .object([])) }
        guard initialized else {
            return errorResponse(
                id: id, RPCError.invalidRequest, "Invalid Request: the server is not initialized; send initialize first"
            )
        }
        if method == "logging/setLevel" {
            guard case .string(let level) = params["level"] ?? .null, let rank = MCPLog.levels.firstIndex(of: level)
            else {
                return errorResponse(
                    id: id, RPCError.invalidParams,
                    "Invalid params: level must be one of " + MCPLog.levels.joined(separator: ", "))
            }
            log.clientLevel = rank
            return response(id: id, .object([]))
        }
        return operation(id: id, method: method, params: params)
    }

    /// The methods both eras answer alike: the tools and the resources.
    func operation(id: JSON, method: String, params: JSON) -> JSON {
        switch method {
        case "tools/list":
            return response(id: id, .object([("tools", .array(service.tools))]))
        case "tools/call":
            guard case .string(let name) = params["name"] ?? .null else {
                return errorResponse(id: id, RPCError.invalidParams, "Invalid params: name must be a tool's name")
            }
            let arguments = params["arguments"] ?? .object([])
            guard case .object = arguments else {
                return errorResponse(id: id, RPCError.invalidParams, "Invalid params: arguments must be an object")
            }
            guard let result = service.callTool(name, arguments: arguments, log: log) else {
                return errorResponse(id: id, RPCError.invalidParams, "Unknown tool: \(name)")
            }
            var fields: [(String, JSON)] = [
                ("content", .array([.object([("type", .string("text")), ("text", .string(result.text))])]))
            ]
            if let structured = result.structured { fields.append(("structuredContent", structured)) }
            fields.append(("isError", .bool(result.isError)))
            return response(id: id, .object(fields))
        case "resources/list":
            return response(id: id, .object([("resources", .array(service.resources))]))
        case "resources/templates/list":
            return response(id: id, .object([("resourceTemplates", .array([]))]))
        case "resources/read":
            guard case .string(let uri) = params["uri"] ?? .null else {
                return errorResponse(id: id, RPCError.invalidParams, "Invalid params: uri must be a string")
            }
            guard let contents = service.readResource(uri) else {
                return errorResponse(
                    id: id, RPCError.resourceNotFound, "Resource not found", data: .object([("uri", .string(uri))]))
            }
            return response(id: id, .object([("contents", .array([contents]))]))
        default:
            return errorResponse(id: id, RPCError.methodNotFound, "Method not found: \(method)")
        }
    }

    /// `initialize`: the revision the client asks for when the server speaks it, else the
    /// newest the server speaks (the client then decides whether to go on).
    func initialize(id: JSON, params: JSON) -> JSON {
        guard case .string(let asked) = params["protocolVersion"] ?? .null else {
            return errorResponse(id: id, RPCError.invalidParams, "Invalid params: protocolVersion must be a string")
        }
        if initialized {
            return errorResponse(id: id, RPCError.invalidRequest, "Invalid Request: initialize was already answered")
        }
        initialized = true
        let revision = Self.protocolVersions.contains(asked) ? asked : Self.protocolVersions[0]
        log.log("debug", "initialize: the client asked for \(asked), the session speaks \(revision)")
        return response(
            id: id,
            .object([
                ("protocolVersion", .string(revision)),
                ("capabilities", capabilities),
                ("serverInfo", .object([("name", .string(name)), ("version", .string(version))])),
                ("instructions", .string(service.instructions)),
            ]))
    }

    /// What the server offers, the same in both eras: tools and resources (whose lists never
    /// change while it runs) and log messages.
    var capabilities: JSON {
        .object([
            ("tools", .object([("listChanged", .bool(false))])),
            ("resources", .object([("subscribe", .bool(false)), ("listChanged", .bool(false))])),
            ("logging", .object([])),
        ])
    }

    func response(id: JSON, _ result: JSON) -> JSON {
        .object([("jsonrpc", .string("2.0")), ("id", id), ("result", result)])
    }

    func errorResponse(id: JSON, _ code: Int, _ message: String, data: JSON? = nil) -> JSON {
        var error: [(String, JSON)] = [("code", .int(code)), ("message", .string(message))]
        if let data { error.append(("data", data)) }
        return .object([("jsonrpc", .string("2.0")), ("id", id), ("error", .object(error))])
    }

    /// Writes one message and a line feed to standard output.
    func send(_ message: JSON) {
        guard outputOpen else { return }
        var text = message.text
        text += "\n"
        if !MCPPlatform.writeStandardOutput(text) { outputOpen = false }
    }
}

/// Standard input, line by line, without holding more than `maximumBytes` of a line.
struct LineReader {
    enum Line {
        case line(ArraySlice<UInt8>)
        /// A line longer than the limit (its length), discarded.
        case tooLong(Int)
    }

    let maximumBytes: Int
    var buffer: [UInt8] = []
    var start = 0
    var ended = false
    /// True when input ended after part of a line.
    var droppedPartial = false
    /// The bytes of an over-long line discarded so far (nil: not in one).
    var discarding: Int?
    /// Where the search for the next line feed goes on (what is before it has none).
    var scanned = 0

    init(maximumBytes: Int) { self.maximumBytes = maximumBytes }

    mutating func next() -> Line? {
        while true {
            if let newline = buffer[max(start, scanned)...].firstIndex(of: 0x0A) {
                if let discarded = discarding {
                    discarding = nil
                    let total = discarded + (newline - start)
                    start = newline + 1
                    scanned = start
                    return .tooLong(total)
                }
                var end = newline
                if end > start, buffer[end - 1] == 0x0D { end -= 1 }
                let line = buffer[start..<end]
                start = newline + 1
                scanned = start
                return .line(line)
            }
            scanned = buffer.count
            // No line feed in what is buffered.
            if discarding != nil {
                discarding! += buffer.count - start
                buffer.removeAll(keepingCapacity: true)
                start = 0
            } else if buffer.count - start > maximumBytes {
                discarding = buffer.count - start
                buffer.removeAll(keepingCapacity: true)
                start = 0
            } else if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            scanned = buffer.count
            if ended {
                if buffer.count > start || discarding != nil { droppedPartial = true }
                return nil
            }
            guard let chunk = MCPPlatform.readStandardInput(maximum: 1 << 16), !chunk.isEmpty else {
                ended = true
                continue
            }
            buffer.append(contentsOf: chunk)
        }
    }
}
