// The stateless protocol revision (2026-07-28; docs/mcp.md §7.1): no
// `initialize` handshake, every request carries its revision and the client's capabilities in
// `params._meta`, `server/discover` tells what the server offers, every result says its
// `resultType`, and the lists and resource reads carry a cache hint.

/// The protocol era of a connection: the client's first request decides it, once.
enum Era {
    case undecided
    /// `initialize` first, then requests without an envelope (revisions 2024-11-05 to 2025-11-25).
    case handshake
    /// Every request carries the `_meta` envelope (revision 2026-07-28).
    case stateless
}

/// The reserved `_meta` keys of the stateless envelope.
enum Envelope {
    static let protocolVersion = "io.modelcontextprotocol/protocolVersion"
    static let clientCapabilities = "io.modelcontextprotocol/clientCapabilities"
    /// The level of `notifications/message` the client wants during this one request.
    static let logLevel = "io.modelcontextprotocol/logLevel"
    /// The server's name and version, in `server/discover`'s `_meta`.
    static let serverInfo = "io.modelcontextprotocol/serverInfo"
}

extension RPCError {
    /// The request's revision is one the server does not speak; `data` names the ones it does.
    static let unsupportedProtocolVersion = -32022
}

extension MCPServer {
    /// How long, in milliseconds, a client may keep a list (`server/discover`, `tools/list`,
    /// `resources/list`, `resources/templates/list`): they never change while the server runs,
    /// so the hour is a choice, not a limit.
    static let listTTLMilliseconds = 3_600_000

    /// The response to one request on a stateless connection: the envelope checked, the
    /// request's own log level applied while it runs, and the revision's result fields added.
    func statelessRequest(id: JSON, method: String, params: JSON) -> JSON {
        if method == "initialize" {
            var data: [(String, JSON)] = [("supported", .array(Self.statelessVersions.map { .string($0) }))]
            if case .string(let asked) = params["protocolVersion"] ?? .null {
                data.append(("requested", .string(asked)))
            }
            return errorResponse(
                id: id, RPCError.unsupportedProtocolVersion,
                "Unsupported protocol version: this connection speaks the stateless revision "
                    + Self.statelessVersions[0] + "; initialize is not part of it",
                data: .object(data))
        }
        guard let meta = params["_meta"], case .object = meta else {
            return errorResponse(
                id: id, RPCError.invalidParams,
                "Invalid params: params._meta must be an object with \(Envelope.protocolVersion) and"
                    + " \(Envelope.clientCapabilities)")
        }
        let missing = [Envelope.protocolVersion, Envelope.clientCapabilities].filter { meta[$0] == nil }
        guard missing.isEmpty else {
            return errorResponse(
                id: id, RPCError.invalidParams,
                "Invalid params: params._meta lacks " + missing.joined(separator: " and "))
        }
        guard case .string(let revision) = meta[Envelope.protocolVersion] ?? .null else {
            return errorResponse(
                id: id, RPCError.invalidParams, "Invalid params: \(Envelope.protocolVersion) must be a string")
        }
        guard Self.statelessVersions.contains(revision) else {
            return errorResponse(
                id: id, RPCError.unsupportedProtocolVersion,
                "Unsupported protocol version: \(revision); this connection speaks "
                    + Self.statelessVersions.joined(separator: ", "),
                data: .object([
                    ("supported", .array(Self.statelessVersions.map { .string($0) })), ("requested", .string(revision)),
                ]))
        }
        var level: Int?
        if let asked = meta[Envelope.logLevel] {
            guard case .string(let name) = asked, let rank = MCPLog.levels.firstIndex(of: name) else {
                return errorResponse(
                    id: id, RPCError.invalidParams,
                    "Invalid params: \(Envelope.logLevel) must be one of " + MCPLog.levels.joined(separator: ", "))
            }
            level = rank
        }
        // Log messages go to the client only during a request that asked for them.
        log.clientLevel = level
        defer { log.clientLevel = nil }
        switch method {
        case "server/discover":
            return withResultFields(response(id: id, discoverResult), method: method, params: params)
        case "ping", "logging/setLevel":
            return errorResponse(
                id: id, RPCError.methodNotFound,
                "Method not found: \(method) is not part of revision \(revision)"
                    + (method == "ping" ? "" : "; ask for log messages with \(Envelope.logLevel) in a request's _meta"))
        default:
            return withResultFields(operation(id: id, method: method, params: params), method: method, params: params)
        }
    }

    /// `server/discover`'s result before the common result fields: the revisions, what the
    /// server offers, its instructions, and its name and version in `_meta`.
    var discoverResult: JSON {
        .object([
            ("supportedVersions", .array(Self.statelessVersions.map { .string($0) })),
            ("capabilities", capabilities),
            ("instructions", .string(service.instructions)),
            (
                "_meta",
                .object([(Envelope.serverInfo, .object([("name", .string(name)), ("version", .string(version))]))])
            ),
        ])
    }

    /// `answer` with the stateless revision's result fields: `resultType` always, and for the
    /// cacheable methods `ttlMs` and `cacheScope` (the lists are the same for anyone: public; a
    /// resource read as its service says). Error responses are returned as they are.
    func withResultFields(_ answer: JSON, method: String, params: JSON) -> JSON {
        guard case .object(var fields) = answer, let index = fields.firstIndex(where: { $0.0 == "result" }),
            case .object(var result) = fields[index].1
        else { return answer }
        result.append(("resultType", .string("complete")))
        switch method {
        case "server/discover", "tools/list", "resources/list", "resources/templates/list":
            result.append(("ttlMs", .int(Self.listTTLMilliseconds)))
            result.append(("cacheScope", .string("public")))
        case "resources/read":
            let hint = params["uri"]?.stringValue.map(service.cacheHint(forResource:)) ?? .uncached
            result.append(("ttlMs", .int(hint.milliseconds)))
            result.append(("cacheScope", .string(hint.isPublic ? "public" : "private")))
        default:
            break
        }
        fields[index].1 = .object(result)
        return .object(fields)
    }
}

/// How long a client may keep a resource it read, and whether a shared cache may hold it.
public struct CacheHint: Sendable, Equatable {
    public var milliseconds: Int
    public var isPublic: Bool

    public init(milliseconds: Int, isPublic: Bool) {
        self.milliseconds = milliseconds
        self.isPublic = isPublic
    }

    /// Read it again each time; only this client may keep it.
    public static let uncached = CacheHint(milliseconds: 0, isPublic: false)
}

extension MCPService {
    /// Unless the service says otherwise, a resource is read again each time.
    public func cacheHint(forResource uri: String) -> CacheHint { .uncached }
}
