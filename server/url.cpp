#include "server/url.hpp"

#include <algorithm>

namespace egtb::server {

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string percent_decode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '+') {
      out += ' ';
    } else if (c == '%' && i + 2 < text.size() && hex_digit(text[i + 1]) >= 0 &&
               hex_digit(text[i + 2]) >= 0) {
      out += static_cast<char>(hex_digit(text[i + 1]) * 16 + hex_digit(text[i + 2]));
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

std::optional<std::string> query_parameter(std::string_view query, std::string_view name) {
  while (!query.empty()) {
    const size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    const size_t eq = pair.find('=');
    if (percent_decode(pair.substr(0, eq)) == name)
      return eq == std::string_view::npos ? std::string() : percent_decode(pair.substr(eq + 1));
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return std::nullopt;
}

bool is_origin(std::string_view text) {
  if (text == "*") return true;
  for (std::string_view scheme : {"http://", "https://"}) {
    if (!text.starts_with(scheme)) continue;
    std::string_view rest = text.substr(scheme.size());
    const bool v6 = rest.starts_with('[');
    const size_t host_end = v6 ? rest.find(']') + 1 : std::min(rest.find(':'), rest.size());
    if (host_end == 0 || host_end < (v6 ? 3u : 1u)) return false;
    const std::string_view host = rest.substr(0, host_end);
    const std::string_view allowed = v6 ? "[]:.0123456789abcdefABCDEF"
                                        : ".-0123456789abcdefghijklmnopqrstuvwxyz"
                                          "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    if (host.find_first_not_of(allowed) != std::string_view::npos) return false;
    rest.remove_prefix(host_end);
    if (rest.empty()) return true;
    return rest.size() >= 2 && rest.size() <= 6 && rest[0] == ':' &&
           rest.find_first_not_of("0123456789", 1) == std::string_view::npos;
  }
  return false;
}

}  // namespace egtb::server
