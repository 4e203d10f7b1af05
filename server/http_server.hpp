// The HTTP/1.1 server under `egtb serve`, on Boost.Beast (asynchronous: a connection costs a socket
// and a buffer, not a thread), knowing nothing of tables: a Handler turns each Request into a
// Response.
//
// Threads. `threads` I/O threads read requests, call the handler for fast requests (a probe takes
// well under a millisecond) and write responses. Requests the handler calls slow (a query scan, a
// table's statistics) run on a separate pool of `slow_threads`, so that they never hold the I/O
// threads; at most `max_pending_slow` of them wait or run at once, and one more is answered 503.
//
// Limits against hostile or broken clients (each answered with its status, then the connection is
// closed): a header block (request line included) over `max_header_bytes` 431, a body over
// `max_body_bytes` 413, a malformed request 400. A whole request must arrive within `read_timeout`
// of the previous response (or of the connection), so slow clients (a byte every few seconds) and
// idle keep-alive connections are closed; a response must be taken within `write_timeout`; beyond
// `max_connections` open connections, new ones are closed at once.
//
// Requests from web pages. A request without exactly one Host header is answered 400. On a
// loopback address, one whose Host is not 127.0.0.1, localhost, [::1] or the address listened on
// (each with or without a port) is answered 403: a page of another site that renamed its host to
// 127.0.0.1 (DNS rebinding) must not reach the server. A request that changes state or costs time
// (any method but GET, HEAD and OPTIONS, or one the handler calls slow) with an Origin header
// other than the server's own (http://HOST) is answered 403 unless the handler allows that
// origin: a page of another site may send such a request (a text/plain POST needs no CORS
// preflight) even though it cannot read the answer.
//
// Ending work. Each request carries a Cancellation (egtb/core/cancellation.hpp) that the server
// raises when it stops (stop(), SIGINT, SIGTERM) and, for a slow request, when its client closes
// the connection while the request waits or runs; a slow request cancelled before it starts is
// not run.
//
// HEAD: the handler sees a GET, and the response goes out with the GET's headers (Content-Length
// the body's) and no body (RFC 9110 §9.3.2), so link checkers and uptime monitors get 200.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "egtb/core/cancellation.hpp"

namespace egtb::server {

struct Request {
  std::string method;         // "GET" (for HEAD too), "POST", "OPTIONS", ...
  std::string path;           // the target before '?', still percent-encoded
  std::string query;          // the target after '?', still percent-encoded
  std::string body;           // empty for GET
  std::string if_none_match;  // the If-None-Match header (cache validation of static files)
  // Raised when the server stops or the client leaves (see above); never null for a request that
  // HttpServer passes to its handler.
  const Cancellation* cancellation = nullptr;
};

struct Response {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // extra header fields
};

class Handler {
public:
  virtual ~Handler() = default;
  // The response to a request; called from several threads at once. An exception escaping it is
  // answered 500 with its message.
  virtual Response handle(const Request& request) = 0;
  // True for requests to run on the slow pool.
  [[nodiscard]] virtual bool is_slow(const Request& request) const = 0;
  // The response of an error the server itself detects (400 malformed request, 403, 413, 431, 503
  // busy, 500 an exception out of handle()).
  [[nodiscard]] virtual Response error(int status, const std::string& message) const = 0;
  // True when pages of `origin` ("http://localhost:3000") may send requests that change state or
  // cost time (see above).
  [[nodiscard]] virtual bool allows_origin(std::string_view origin) const = 0;
};

struct ServerOptions {
  std::string host = "127.0.0.1";  // an IPv4 or IPv6 address, or "localhost" (127.0.0.1)
  uint16_t port = 8080;            // 0: a free port chosen by the system (see HttpServer::port)
  int threads = 0;                 // I/O threads; 0: one per core
  int slow_threads = 2;
  size_t max_pending_slow = 8;
  size_t max_header_bytes = size_t{16} << 10;
  size_t max_body_bytes = size_t{64} << 10;
  std::chrono::milliseconds read_timeout{10'000};
  std::chrono::milliseconds write_timeout{10'000};
  size_t max_connections = 1024;
};

// One request in raw bytes, answered as a connection of a server with `options` answers it (the
// parser and its limits, the checks above, the handler) but on this thread and without a socket:
// for tests and the fuzzer (tests/fuzz/fuzz_http.cpp). Nothing when the bytes end before a
// request does.
[[nodiscard]] std::optional<Response> answer_bytes(std::string_view bytes, const ServerOptions& options,
                                                   Handler& handler);

// What a connection whose request is being answered shows when it wakes up readable: the client
// has gone (end of stream, a reset), has sent more bytes (a pipelined request), or neither (a
// wake-up with nothing to read: the edge of bytes already read). Never waits: a peek of the native
// socket with MSG_DONTWAIT, where Asio's own receive on a socket it drives waits in poll() for
// bytes that may never come, holding the connection's strand and its answer.
enum class ClientState { Gone, Sent, Quiet };
[[nodiscard]] ClientState peek_client(int socket);

class HttpServer {
public:
  // Binds and listens on host:port. Throws std::runtime_error naming the address when it cannot.
  HttpServer(const ServerOptions& options, Handler& handler);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // The port listened on (the system's choice when the options said 0).
  [[nodiscard]] uint16_t port() const;
  // Serves until stop() or, when `stop_on_signals`, SIGINT or SIGTERM; returns after every
  // connection is closed and every slow request has ended.
  void run(bool stop_on_signals);
  // Stops accepting and ends run(); thread-safe.
  void stop();

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace egtb::server
