#include "server/assets.hpp"

#include <functional>

#include "egtb/core/types.hpp"
#include "stats/figures.hpp"

namespace egtb::server {

namespace {

std::string_view extension(std::string_view path) {
  const size_t dot = path.rfind('.');
  return dot == std::string_view::npos ? std::string_view() : path.substr(dot);
}

std::string content_type(std::string_view path) {
  const std::string_view ext = extension(path);
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".js") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".json") return "application/json";
  return "application/octet-stream";
}

Asset make_asset(std::string_view path, std::string body) {
  const size_t hash = std::hash<std::string>{}(body);
  return {content_type(path), std::move(body), "\"" + std::to_string(hash) + "\""};
}

}  // namespace

std::string pieces_sprite() {
  std::string svg = R"(<svg xmlns="http://www.w3.org/2000/svg">)";
  for (Color c : {Color::White, Color::Black})
    for (PieceType t : {PieceType::King, PieceType::Queen, PieceType::Rook, PieceType::Bishop,
                        PieceType::Knight, PieceType::Pawn}) {
      svg += R"(<symbol viewBox="0 0 45 45" id=")";
      svg += color_char(c);
      svg += piece_char(make_piece(Color::White, t));
      svg += "\">";
      svg += stats::piece_svg(make_piece(c, t));
      svg += "</symbol>";
    }
  return svg + "</svg>\n";
}

Assets::Assets() {
  for (const EmbeddedFile& f : embedded_files())
    assets_.emplace(f.path, make_asset(f.path, std::string(reinterpret_cast<const char*>(f.data), f.size)));
  if (const auto index = assets_.find("/index.html"); index != assets_.end())
    assets_.emplace("/", index->second);
  assets_.emplace("/pieces.svg", make_asset("/pieces.svg", pieces_sprite()));
}

const Asset* Assets::find(std::string_view path) const {
  const auto it = assets_.find(path);
  return it == assets_.end() ? nullptr : &it->second;
}

}  // namespace egtb::server
