// Reading the query string of a request target ("fen=8/8/8/8/8/8/8/K1k5_w_-_-&x=1").
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace egtb::server {

// Text with its %XX escapes decoded and '+' read as a space (HTML form encoding); a '%' not
// followed by two hexadecimal digits is kept as it is.
[[nodiscard]] std::string percent_decode(std::string_view text);

// The decoded value of the first parameter `name` of a query string; nothing when it is absent
// ("fen" alone, without '=', has the empty value).
[[nodiscard]] std::optional<std::string> query_parameter(std::string_view query, std::string_view name);

// True for an origin as browsers send it in the Origin header: "http" or "https", "://", a host
// (letters, digits, '.' and '-', or an IPv6 address in brackets) and an optional port, nothing
// else ("http://localhost:3000", "https://[::1]"); and for "*", any origin.
[[nodiscard]] bool is_origin(std::string_view text);

}  // namespace egtb::server
