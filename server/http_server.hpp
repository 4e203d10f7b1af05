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
// `max_connections` open connections, new ones are closed at once. On a loopback address, a request
// whose Host header names another host is answered 403 (a web page's DNS rebinding attack).
//
// HEAD: the handler sees a GET, and the response goes out with the GET's headers (Content-Length
// the body's) and no body (RFC 9110 §9.3.2), so link checkers and uptime monitors get 200.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace egtb::server {

struct Request {
  std::string method;         // "GET" (for HEAD too), "POST", "OPTIONS", ...
  std::string path;           // the target before '?', still percent-encoded
  std::string query;          // the target after '?', still percent-encoded
  std::string body;           // empty for GET
  std::string if_none_match;  // the If-None-Match header (cache validation of static files)
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
  // The response of an error the server itself detects (400 malformed request, 413, 431, 503 busy,
  // 500 an exception out of handle()).
  [[nodiscard]] virtual Response error(int status, const std::string& message) const = 0;
  // Called once when the server stops: slow requests running should end soon.
  virtual void shutdown() {}
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
