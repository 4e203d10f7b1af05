#include "server/http_server.hpp"

#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <boost/algorithm/string/predicate.hpp>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cerrno>
#include <csignal>
#include <exception>
#include <optional>
#include <stdexcept>
#include <thread>

namespace egtb::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

// What every connection shares. Declared before the I/O context, so that it outlives the sessions
// the context still holds when it is destroyed.
struct Shared {
  ServerOptions options;
  Handler& handler;
  std::atomic<size_t> connections = 0;
  std::atomic<size_t> pending_slow = 0;
  // Listening on a loopback address: the Host names requests may carry (see listen()); else empty.
  std::vector<std::string> loopback_hosts{};
  Cancellation stopping{};  // raised by stop(): the parent of every request's cancellation
};

// True when a Host header value is one of `names` ("127.0.0.1", "[::1]"), alone or with a port
// ("localhost:8080"; letters in any case).
bool host_named(std::string_view host, const std::vector<std::string>& names) {
  const size_t colon = host.starts_with('[') ? host.find(']') + 1 : host.find(':');
  const std::string_view name = host.substr(0, colon);
  if (colon != std::string_view::npos && colon < host.size()) {
    const std::string_view port = host.substr(colon);
    if (port.size() < 2 || port.size() > 6 || port[0] != ':' ||
        !std::all_of(port.begin() + 1, port.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return false;
  }
  return std::any_of(names.begin(), names.end(),
                     [&](const std::string& n) { return boost::algorithm::iequals(n, name); });
}

std::string_view text(beast::string_view s) { return {s.data(), s.size()}; }

// Why a request is refused before its handler sees it (http_server.hpp: Host and Origin), or
// nothing.
std::optional<Response> refusal(const http::request<http::string_body>& req, const Shared& shared,
                                bool slow) {
  if (req.count(http::field::host) != 1)
    return shared.handler.error(400, "a request must have exactly one Host header");
  const std::string_view host = text(req[http::field::host]);
  if (!shared.loopback_hosts.empty() && !host_named(host, shared.loopback_hosts))
    return shared.handler.error(403, "this server answers requests to 127.0.0.1, localhost or [::1] only");
  const bool reads_only = req.method() == http::verb::get || req.method() == http::verb::head ||
                          req.method() == http::verb::options;
  const auto origins = req.equal_range(http::field::origin);
  if ((reads_only && !slow) || origins.first == origins.second) return std::nullopt;
  const std::string_view origin = text(origins.first->value());
  const bool own = boost::algorithm::iequals(origin, "http://" + std::string(host));
  if (std::next(origins.first) != origins.second || !(own || shared.handler.allows_origin(origin)))
    return shared.handler.error(403, "requests from pages of other sites (Origin " + std::string(origin) +
                                         ") are refused; egtb serve --cors-origin allows one");
  return std::nullopt;
}

Request to_request(const http::request<http::string_body>& req, const Cancellation* cancellation) {
  Request r;
  r.method.assign(req.method_string().data(), req.method_string().size());
  if (req.method() == http::verb::head) r.method = "GET";
  const std::string_view target = text(req.target());
  const size_t question = target.find('?');
  r.path = std::string(target.substr(0, question));
  if (question != std::string_view::npos) r.query = std::string(target.substr(question + 1));
  r.body = req.body();
  if (const auto it = req.find(http::field::if_none_match); it != req.end())
    r.if_none_match.assign(it->value().data(), it->value().size());
  r.cancellation = cancellation;
  return r;
}

// The answer to a request that could not be read whole (ec is not a closed or timed-out
// connection): 413, 431 or 400.
Response read_error(beast::error_code ec, const Shared& shared) {
  if (ec == http::error::body_limit)
    return shared.handler.error(
        413, "the request body is larger than " + std::to_string(shared.options.max_body_bytes) + " bytes");
  if (ec == http::error::header_limit)
    return shared.handler.error(431, "the request line and headers are longer than " +
                                         std::to_string(shared.options.max_header_bytes) + " bytes");
  return shared.handler.error(400, "malformed HTTP request: " + ec.message());
}

void set_limits(http::request_parser<http::string_body>& parser, const ServerOptions& options) {
  parser.header_limit(static_cast<std::uint32_t>(options.max_header_bytes));
  parser.body_limit(options.max_body_bytes);
}

Response answer(const Request& request, Handler& handler) {
  try {
    return handler.handle(request);
  } catch (const std::exception& e) {
    return handler.error(500, e.what());
  }
}

// The Host names of requests to a server listening on `address` (see Shared::loopback_hosts).
std::vector<std::string> loopback_hosts(const net::ip::address& address) {
  if (!address.is_loopback()) return {};
  return {"127.0.0.1", "localhost", "[::1]",
          address.is_v6() ? "[" + address.to_string() + "]" : address.to_string()};
}

// The address to listen on: ServerOptions::host, "localhost" being 127.0.0.1.
net::ip::address listen_address(const std::string& host) {
  beast::error_code ec;
  const net::ip::address address = net::ip::make_address(host == "localhost" ? "127.0.0.1" : host, ec);
  if (ec) throw std::runtime_error("serve: '" + host + "' is not an IP address");
  return address;
}

// One connection: reads a request, answers it, and reads the next while the client keeps it alive.
class Session : public std::enable_shared_from_this<Session> {
public:
  Session(tcp::socket&& socket, Shared& shared, net::thread_pool& slow_pool)
      : stream_(std::move(socket)), shared_(shared), slow_pool_(slow_pool) {
    ++shared_.connections;
  }
  ~Session() { --shared_.connections; }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  void start() {
    net::dispatch(stream_.get_executor(), beast::bind_front_handler(&Session::read, shared_from_this()));
  }

private:
  beast::tcp_stream stream_;
  Shared& shared_;
  net::thread_pool& slow_pool_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::response<http::string_body> response_;
  unsigned version_ = 11;
  bool keep_alive_ = false;
  bool head_ = false;      // the request is a HEAD: answered as its GET, the body left out
  bool watching_ = false;  // watch_client() waits on the socket

  void read() {
    parser_.emplace();
    set_limits(*parser_, shared_.options);
    stream_.expires_after(shared_.options.read_timeout);
    http::async_read(stream_, buffer_, *parser_,
                     beast::bind_front_handler(&Session::on_read, shared_from_this()));
  }

  void on_read(beast::error_code ec, size_t) {
    if (ec == http::error::end_of_stream || ec == beast::error::timeout || ec == net::error::eof ||
        ec == net::error::connection_reset || ec == net::error::operation_aborted)
      return close();
    keep_alive_ = false;
    head_ = false;
    if (ec) return write(read_error(ec, shared_));
    const http::request<http::string_body>& req = parser_->get();
    version_ = req.version();
    keep_alive_ = req.keep_alive();
    head_ = req.method() == http::verb::head;
    Request request = to_request(req, &shared_.stopping);
    const bool slow = shared_.handler.is_slow(request);
    if (std::optional<Response> refused = refusal(req, shared_, slow)) {
      keep_alive_ = false;
      return write(std::move(*refused));
    }
    if (!slow) return write(answer(request, shared_.handler));
    run_slow(std::move(request));
  }

  // Runs a slow request on the slow pool, with a cancellation of its own that the client's leaving
  // raises; one cancelled before its turn is not run.
  void run_slow(Request request) {
    if (shared_.pending_slow.fetch_add(1) >= shared_.options.max_pending_slow) {
      --shared_.pending_slow;
      return write(shared_.handler.error(503, "the server is busy with other queries; try again shortly"),
                   {{"Retry-After", "2"}});
    }
    auto cancellation = std::make_shared<Cancellation>(&shared_.stopping);
    request.cancellation = cancellation.get();
    watch_client(cancellation);
    net::post(slow_pool_, [self = shared_from_this(), request = std::move(request), cancellation] {
      Handler& handler = self->shared_.handler;
      Response response = cancellation->requested()
                              ? handler.error(503,
                                              "the request was cancelled before it ran (client gone or "
                                              "server stopping)")
                              : answer(request, handler);
      --self->shared_.pending_slow;
      net::post(self->stream_.get_executor(),
                [self, response = std::move(response)]() mutable { self->write(std::move(response)); });
    });
  }

  // Raises `cancellation` when the client closes or resets the connection while its slow request
  // waits or runs. Bytes arriving instead (a pipelined request) end the watch; so does write(). A
  // wake-up with nothing to read waits again (peek_client never blocks the strand).
  void watch_client(const std::shared_ptr<Cancellation>& cancellation) {
    watching_ = true;
    stream_.socket().async_wait(tcp::socket::wait_read, [self = shared_from_this(),
                                                         cancellation](beast::error_code ec) {
      if (ec == net::error::operation_aborted || !self->watching_) return;
      const ClientState state = ec ? ClientState::Gone : peek_client(self->stream_.socket().native_handle());
      if (state == ClientState::Quiet) return self->watch_client(cancellation);
      if (state == ClientState::Gone) cancellation->cancel();
    });
  }

  void write(Response r, std::vector<std::pair<std::string, std::string>> extra = {}) {
    if (std::exchange(watching_, false)) {
      beast::error_code ignored;
      stream_.socket().cancel(ignored);
    }
    response_ = {static_cast<http::status>(r.status), version_};
    response_.set(http::field::server, "egtb");
    response_.set(http::field::content_type, r.content_type);
    for (const auto& [name, value] : r.headers) response_.set(name, value);
    for (const auto& [name, value] : extra) response_.set(name, value);
    const size_t length = r.body.size();
    response_.body() = head_ ? std::string() : std::move(r.body);
    response_.keep_alive(keep_alive_);
    response_.prepare_payload();
    if (head_) response_.content_length(length);  // the length of the GET's body, which is left out
    stream_.expires_after(shared_.options.write_timeout);
    http::async_write(stream_, response_, beast::bind_front_handler(&Session::on_write, shared_from_this()));
  }

  void on_write(beast::error_code ec, size_t) {
    if (ec) return;
    if (!response_.keep_alive()) return close();
    response_ = {};
    read();
  }

  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
  }
};

int io_threads(int requested) {
  if (requested > 0) return requested;
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

}  // namespace

struct HttpServer::Impl {
  Shared shared;
  net::io_context io;
  tcp::acceptor acceptor;
  net::steady_timer accept_pause;
  net::signal_set signals;
  net::thread_pool slow_pool;

  Impl(const ServerOptions& options, Handler& handler)
      : shared{options, handler},
        io(io_threads(options.threads)),
        acceptor(io),
        accept_pause(io),
        signals(io),
        slow_pool(static_cast<size_t>(std::max(1, options.slow_threads))) {}

  void listen() {
    beast::error_code ec;
    const net::ip::address address = listen_address(shared.options.host);
    const tcp::endpoint endpoint(address, shared.options.port);
    acceptor.open(endpoint.protocol(), ec);
    if (!ec) acceptor.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) acceptor.bind(endpoint, ec);
    if (!ec) acceptor.listen(net::socket_base::max_listen_connections, ec);
    // A page of another site that renames its host to 127.0.0.1 (DNS rebinding) must not reach a
    // server that listens on loopback only: its requests still carry the other site's Host.
    shared.loopback_hosts = loopback_hosts(address);
    if (ec)
      throw std::runtime_error("serve: cannot listen on " + shared.options.host + ":" +
                               std::to_string(shared.options.port) + ": " + ec.message());
  }

  // Accepts connections one after the other. After a failed accept (no file descriptor left, say)
  // it waits a moment rather than spinning on the same error.
  void accept() {
    acceptor.async_accept(net::make_strand(io), [this](beast::error_code ec, tcp::socket socket) {
      if (ec == net::error::operation_aborted || !acceptor.is_open()) return;
      if (ec) {
        accept_pause.expires_after(std::chrono::milliseconds(100));
        accept_pause.async_wait([this](beast::error_code) { accept(); });
        return;
      }
      if (shared.connections < shared.options.max_connections)
        std::make_shared<Session>(std::move(socket), shared, slow_pool)->start();
      accept();
    });
  }

  void stop() {
    shared.stopping.cancel();  // at once: slow requests under way end within milliseconds
    net::post(io, [this] {
      beast::error_code ignored;
      acceptor.close(ignored);
      accept_pause.cancel();
      signals.cancel(ignored);
      io.stop();
    });
  }
};

ClientState peek_client(int socket) {
  char byte = 0;
  const ssize_t n = ::recv(socket, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  if (n > 0) return ClientState::Sent;
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return ClientState::Quiet;
  return ClientState::Gone;
}

std::optional<Response> answer_bytes(std::string_view bytes, const ServerOptions& options, Handler& handler) {
  Shared shared{options, handler};
  shared.loopback_hosts = loopback_hosts(listen_address(options.host));
  http::request_parser<http::string_body> parser;
  set_limits(parser, options);
  parser.eager(true);
  beast::error_code ec;
  while (!ec && !parser.is_done()) {
    const size_t used = bytes.empty() ? 0 : parser.put(net::buffer(bytes.data(), bytes.size()), ec);
    bytes.remove_prefix(used);
    if (ec == http::error::need_more) ec = {};
    // No byte taken: the bytes end before the request does (Beast takes none of an empty buffer
    // inside a body, without an error, so asking again would never end).
    if (!ec && used == 0) {
      if (!parser.got_some()) return std::nullopt;
      parser.put_eof(ec);
      if (!ec && !parser.is_done()) return std::nullopt;
    }
  }
  if (ec == http::error::partial_message) return std::nullopt;
  if (ec) return read_error(ec, shared);
  const Request request = to_request(parser.get(), &shared.stopping);
  if (std::optional<Response> refused = refusal(parser.get(), shared, handler.is_slow(request)))
    return refused;
  return answer(request, handler);
}

HttpServer::HttpServer(const ServerOptions& options, Handler& handler)
    : impl_(std::make_unique<Impl>(options, handler)) {
  impl_->listen();
}

HttpServer::~HttpServer() = default;

uint16_t HttpServer::port() const { return impl_->acceptor.local_endpoint().port(); }

void HttpServer::run(bool stop_on_signals) {
  if (stop_on_signals) {
    impl_->signals.add(SIGINT);
    impl_->signals.add(SIGTERM);
    impl_->signals.async_wait([this](beast::error_code ec, int) {
      if (!ec) stop();
    });
  }
  impl_->accept();
  std::vector<std::thread> threads;
  for (int i = 1; i < io_threads(impl_->shared.options.threads); ++i)
    threads.emplace_back([this] { impl_->io.run(); });
  impl_->io.run();
  for (std::thread& t : threads) t.join();
  impl_->slow_pool.join();
}

void HttpServer::stop() { impl_->stop(); }

}  // namespace egtb::server
