#include "server/http_server.hpp"

#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
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
  bool loopback = false;  // listening on a loopback address: requests must name it (see listen())
};

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
  bool head_ = false;  // the request is a HEAD: answered as its GET, the body left out

  void read() {
    parser_.emplace();
    parser_->header_limit(static_cast<std::uint32_t>(shared_.options.max_header_bytes));
    parser_->body_limit(shared_.options.max_body_bytes);
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
    if (ec == http::error::body_limit)
      return write(shared_.handler.error(413, "the request body is larger than " +
                                                  std::to_string(shared_.options.max_body_bytes) + " bytes"));
    if (ec == http::error::header_limit)
      return write(shared_.handler.error(431, "the request line and headers are longer than " +
                                                  std::to_string(shared_.options.max_header_bytes) +
                                                  " bytes"));
    if (ec) return write(shared_.handler.error(400, "malformed HTTP request: " + ec.message()));
    const http::request<http::string_body>& req = parser_->get();
    version_ = req.version();
    keep_alive_ = req.keep_alive();
    head_ = req.method() == http::verb::head;
    const auto host = req.find(http::field::host);
    if (shared_.loopback && host != req.end() && !loopback_name(host->value())) {
      keep_alive_ = false;
      return write(
          shared_.handler.error(403, "this server answers requests to 127.0.0.1, localhost or [::1] only"));
    }
    dispatch(to_request(req));
  }

  // True when a Host header names a loopback address or localhost, with or without a port.
  static bool loopback_name(beast::string_view host) {
    const std::string_view h(host.data(), host.size());
    const std::string_view name =
        h.starts_with('[') ? h.substr(0, h.find(']') + 1) : h.substr(0, h.find(':'));
    return name == "localhost" || name == "[::1]" || name.starts_with("127.");
  }

  static Request to_request(const http::request<http::string_body>& req) {
    Request r;
    r.method.assign(req.method_string().data(), req.method_string().size());
    if (req.method() == http::verb::head) r.method = "GET";
    const std::string_view target(req.target().data(), req.target().size());
    const size_t question = target.find('?');
    r.path = std::string(target.substr(0, question));
    if (question != std::string_view::npos) r.query = std::string(target.substr(question + 1));
    r.body = req.body();
    if (const auto it = req.find(http::field::if_none_match); it != req.end())
      r.if_none_match.assign(it->value().data(), it->value().size());
    return r;
  }

  // Answers on this thread, or on the slow pool when the handler says so.
  void dispatch(Request request) {
    if (!shared_.handler.is_slow(request)) return write(answer(request));
    if (shared_.pending_slow.fetch_add(1) >= shared_.options.max_pending_slow) {
      --shared_.pending_slow;
      return write(shared_.handler.error(503, "the server is busy with other queries; try again shortly"),
                   {{"Retry-After", "2"}});
    }
    net::post(slow_pool_, [self = shared_from_this(), request = std::move(request)] {
      Response response = self->answer(request);
      --self->shared_.pending_slow;
      net::post(self->stream_.get_executor(),
                [self, response = std::move(response)]() mutable { self->write(std::move(response)); });
    });
  }

  Response answer(const Request& request) {
    try {
      return shared_.handler.handle(request);
    } catch (const std::exception& e) {
      return shared_.handler.error(500, e.what());
    }
  }

  void write(Response r, std::vector<std::pair<std::string, std::string>> extra = {}) {
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
    const std::string& host = shared.options.host;
    const net::ip::address address = net::ip::make_address(host == "localhost" ? "127.0.0.1" : host, ec);
    if (ec) throw std::runtime_error("serve: '" + shared.options.host + "' is not an IP address");
    const tcp::endpoint endpoint(address, shared.options.port);
    acceptor.open(endpoint.protocol(), ec);
    if (!ec) acceptor.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) acceptor.bind(endpoint, ec);
    if (!ec) acceptor.listen(net::socket_base::max_listen_connections, ec);
    // A page of another site that renames its host to 127.0.0.1 (DNS rebinding) must not reach a
    // server that listens on loopback only: its requests still carry the other site's Host.
    shared.loopback = address.is_loopback();
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
    net::post(io, [this] {
      beast::error_code ignored;
      acceptor.close(ignored);
      accept_pause.cancel();
      signals.cancel(ignored);
      shared.handler.shutdown();
      io.stop();
    });
  }
};

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
