// A minimal HTTP/1.1 client over POSIX sockets for the server tests: it sends bytes exactly as
// given (so tests can send malformed, oversized or slow requests) and reads the reply to the end.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>

namespace egtb::test {

struct Reply {
  int status = 0;                              // 0 when the server closed without a reply
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;

  [[nodiscard]] std::string header(const std::string& name) const;
};

// A connection to 127.0.0.1:port; closed by the destructor.
class Connection {
public:
  explicit Connection(uint16_t port);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  void send(const std::string& bytes);
  // Everything the server sends until it closes the connection or `timeout` passes.
  [[nodiscard]] std::string receive_all(std::chrono::milliseconds timeout = std::chrono::seconds(10));
  // True when the server has closed the connection (a read returns end of file) within `timeout`.
  [[nodiscard]] bool closed_within(std::chrono::milliseconds timeout);

private:
  int fd_ = -1;
};

// The reply in raw bytes (status line, headers, body by Content-Length or to the end).
[[nodiscard]] Reply parse_reply(const std::string& raw);

// One request on a new connection with "Connection: close".
[[nodiscard]] Reply get(uint16_t port, const std::string& target);
[[nodiscard]] Reply post(uint16_t port, const std::string& target, const std::string& body);
// Raw bytes on a new connection, and the reply.
[[nodiscard]] Reply exchange(uint16_t port, const std::string& bytes);

}  // namespace egtb::test
