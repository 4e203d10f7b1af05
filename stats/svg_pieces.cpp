// The men of the board diagrams, drawn in a 45 x 45 box as plain SVG paths and circles: outlines in
// black, bodies white or black, inner details in the contrasting colour. Each shape is a list of
// elements; the colours are applied by the group around them.
#include <array>
#include <string>

#include "stats/figures.hpp"

namespace egtb::stats {

namespace {

struct Shape {
  const char* body;    // filled with the man's colour, outlined in black
  const char* detail;  // strokes in the contrasting colour, not filled
};

// Indexed by PieceType: None, Pawn, Knight, Bishop, Rook, Queen, King.
constexpr std::array<Shape, PieceTypeCount> Shapes = {{
    {"", ""},
    {R"(<circle cx="22.5" cy="13.5" r="5"/>)"
     R"(<path d="M18.5 20h8l-1 2.5c3 2.5 5 7 5.5 12.5h-17c0.5-5.5 2.5-10 5.5-12.5z"/>)"
     R"(<path d="M11.5 35h22v4h-22z"/>)",
     ""},
    {R"(<path d="M13 39h21c0-9-1-16-3.5-21.5c-2-4.5-5.5-8-10-9.5l-1.5-2.5l-2 3.5c-2.5 1.5-4.5 4-5.5 6.5)"
     R"(l-3.5 5c-1 1.5 0 3.5 1.5 3.5c1.5 0 2.5-1 3.5-2l2.5-1.5c1.5-0.5 3.5-1 5-2.5c-0.5 3-2.5 5.5-5 8)"
     R"(c-2.5 2.5-3.5 6-3.5 10z"/>)",
     R"(<circle cx="17.5" cy="15.5" r="1.2"/><path d="M24 11c3.5 2 6 6 7 11"/>)"},
    {R"(<circle cx="22.5" cy="8" r="2.5"/>)"
     R"(<path d="M22.5 10.5c-5 4-8 9.5-7.5 14.5c0.3 2.5 1.5 4 2.5 5h10c1-1 2.2-2.5 2.5-5c0.5-5-2.5-10.5-7.5-14.5z"/>)"
     R"(<path d="M16 30h13v3h-13z"/><path d="M11 35h23v4h-23z"/>)",
     R"(<path d="M22.5 15.5v8M18.5 19.5h8"/>)"},
    {R"(<path d="M12 9h4v3h4v-3h5v3h4v-3h4v7l-3 2h-15l-3-2z"/><path d="M15 18h15v13h-15z"/>)"
     R"(<path d="M13 31h19l1.5 4h-22z"/><path d="M10.5 35h24v4h-24z"/>)",
     R"(<path d="M15.5 18h14M15.5 31h14"/>)"},
    {R"(<path d="M11 34l-2-18l6 10l1-12l5 11l1.5-13l1.5 13l5-11l1 12l6-10l-2 18z"/>)"
     R"(<circle cx="9" cy="14.5" r="2"/><circle cx="16" cy="12.5" r="2"/><circle cx="22.5" cy="10.5" r="2"/>)"
     R"(<circle cx="29" cy="12.5" r="2"/><circle cx="36" cy="14.5" r="2"/><path d="M11 34h23v5h-23z"/>)",
     R"(<path d="M12 30.5h21"/>)"},
    {R"(<path d="M22.5 5v9M19 8.5h7" fill="none"/>)"
     R"(<path d="M22.5 14c-2 0-3 2-3 4c0 2 1.5 4 3 6c1.5-2 3-4 3-6c0-2-1-4-3-4z"/>)"
     R"(<path d="M12 35c-4-5-4-12 2-14c4-1.5 7 1 8.5 5c1.5-4 4.5-6.5 8.5-5c6 2 6 9 2 14z"/>)"
     R"(<path d="M11.5 35h22v4h-22z"/>)",
     R"(<path d="M14 30.5h17"/>)"},
}};

}  // namespace

std::string piece_svg(Piece p) {
  const bool white = color_of(p) == Color::White;
  const Shape& shape = Shapes[static_cast<size_t>(to_index(type_of(p)))];
  std::string out = std::string(R"(<g fill=")") + (white ? "#ffffff" : "#202020") +
                    R"(" stroke="#000000" stroke-width="1.5" stroke-linejoin="round">)" + shape.body + "</g>";
  if (*shape.detail != '\0')
    out += std::string(R"(<g fill="none" stroke=")") + (white ? "#000000" : "#ffffff") +
           R"(" stroke-width="1.2" stroke-linecap="round">)" + shape.detail + "</g>";
  return out;
}

std::string xml_escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace egtb::stats
