// The files of the web page, served from memory: the files of server/web/ embedded in the binary
// at build time (server/embed_files.cmake writes their bytes into a generated source file) and
// the sprite of chess men drawn from the statistics figures' pieces (stats/figures.hpp). Only
// these paths are served, so no request path can reach the file system.
#pragma once

#include <cstddef>
#include <map>
#include <span>
#include <string>
#include <string_view>

namespace egtb::server {

// A file of server/web/ as the build embedded it.
struct EmbeddedFile {
  const char* path;  // "/index.html"
  const unsigned char* data;
  size_t size;
};

// Every embedded file (defined in the generated web_assets.cpp).
[[nodiscard]] std::span<const EmbeddedFile> embedded_files();

struct Asset {
  std::string content_type;  // by the file's extension, "text/html; charset=utf-8"
  std::string body;
  std::string etag;  // a quoted hash of the body, for If-None-Match
};

class Assets {
public:
  // The embedded files, "/" for "/index.html", and "/pieces.svg": one <symbol> per man, with the
  // ids wK, wQ, ..., bP, each in a 45 x 45 view box.
  Assets();

  // The asset of a request path, or nullptr.
  [[nodiscard]] const Asset* find(std::string_view path) const;

private:
  std::map<std::string, Asset, std::less<>> assets_;
};

// The sprite of men served as /pieces.svg.
[[nodiscard]] std::string pieces_sprite();

}  // namespace egtb::server
