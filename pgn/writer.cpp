#include "pgn/writer.hpp"

#include <string_view>

#include "egtb/core/fen.hpp"
#include "egtb/core/notation.hpp"

namespace egtb::pgn {

namespace {

// The roster's placeholder for a missing tag.
std::string roster_default(std::string_view name, const Game& game) {
  if (name == "Date") return "????.??.??";
  if (name == "Result") return game.result;
  return "?";
}

void write_tag(std::string& out, std::string_view name, std::string_view value) {
  out += '[';
  out += name;
  out += " \"";
  for (char c : value) {
    if (c == '\\' || c == '"') out += '\\';
    out += c == '\n' || c == '\r' ? ' ' : c;
  }
  out += "\"]\n";
}

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }

bool is_roster(std::string_view name) {
  for (std::string_view r : SevenTagRoster)
    if (r == name) return true;
  return false;
}

void write_tags(std::string& out, const Game& game) {
  for (std::string_view name : SevenTagRoster) {
    const std::optional<std::string_view> value = game.tag(name);
    write_tag(out, name, value ? std::string(*value) : roster_default(name, game));
  }
  for (const Tag& t : game.tags)
    if (!is_roster(t.name)) write_tag(out, t.name, t.value);
  if (!game.find_tag("FEN") && to_fen(game.start()) != StartFen) {
    write_tag(out, "FEN", to_fen(game.start()));
    if (!game.find_tag("SetUp")) write_tag(out, "SetUp", "1");
  }
}

// Words joined into lines of at most `width` characters. A word is held until the next one
// comes, so that a closing parenthesis can still join it.
class Wrapper {
public:
  Wrapper(std::string& out, size_t width) : out_(out), width_(width) {}

  void word(std::string_view text) {
    place();
    held_ = prefix_;
    held_ += text;
    prefix_.clear();
  }
  // The next word starts with '('.
  void open() { prefix_ += '('; }
  // The last word ends with c.
  void append(char c) { held_ += c; }
  void finish() {
    place();
    if (!line_.empty()) out_ += line_ + '\n';
    line_.clear();
  }

private:
  std::string& out_;
  size_t width_;
  std::string line_;
  std::string held_;
  std::string prefix_;

  void place() {
    if (held_.empty()) return;
    if (!line_.empty() && line_.size() + 1 + held_.size() > width_) {
      out_ += line_ + '\n';
      line_.clear();
    }
    if (!line_.empty())
      line_ += ' ';
    else if (held_[0] == '%')
      line_ += ' ';
    line_ += held_;
    held_.clear();
  }
};

class MovetextWriter {
public:
  MovetextWriter(const Game& game, const WriteOptions& options, Wrapper& out)
      : game_(game), options_(options), out_(out) {}

  void write() {
    const Node& root = game_.node(Game::Root);
    nags(root);
    comments(root.comments);
    if (root.first_child != NoNode) line(Game::Root, root.first_child, false);
    out_.word(game_.result);
  }

private:
  const Game& game_;
  const WriteOptions& options_;
  Wrapper& out_;

  // Writes the line that starts with `first`, played from `from`, with its variations.
  void line(NodeId from, NodeId first, bool variation) {
    bool number = true;
    for (NodeId n = first; n != NoNode; from = n, n = game_.node(n).first_child) {
      const Node& node = game_.node(n);
      if (variation && n == first) number |= comments(node.starting_comments);
      move(from, node, number);
      nags(node);
      number = comments(node.comments);
      if (options_.variations && n == game_.node(from).first_child)
        for (NodeId v = node.next_sibling; v != NoNode; v = game_.node(v).next_sibling) {
          out_.open();
          line(from, v, true);
          out_.append(')');
          number = true;
        }
    }
  }

  void move(NodeId from, const Node& node, bool number) {
    const Position& pos = game_.position(from);
    const std::string san = node.move.is_null() ? std::string(NullMoveText) : to_san(pos, node.move);
    out_.word(pos.side_to_move() == Color::White || number ? move_number(pos) + " " + san : san);
  }

  void nags(const Node& node) {
    if (!options_.nags) return;
    for (uint8_t nag : node.nags) out_.word("$" + std::to_string(nag));
  }

  // Writes comments; true when there was one.
  bool comments(const std::vector<std::string>& texts) {
    if (!options_.comments) return false;
    for (const std::string& text : texts) comment(text);
    return !texts.empty();
  }

  void comment(std::string_view text) {
    std::string word = "{";
    for (char c : text) {
      if (!is_space(c)) {
        word += c == '}' ? ')' : c;
      } else if (!word.empty() && word != "{") {
        out_.word(word);
        word.clear();
      }
    }
    if (word.empty())
      out_.append('}');
    else
      out_.word(word + "}");
  }
};

}  // namespace

std::string to_pgn(const Game& game, const WriteOptions& options) {
  std::string out;
  write_tags(out, game);
  out += '\n';
  Wrapper wrapper(out, options.width);
  MovetextWriter(game, options, wrapper).write();
  wrapper.finish();
  out += '\n';
  return out;
}

void write_game(std::ostream& out, const Game& game, const WriteOptions& options) {
  out << to_pgn(game, options);
}

}  // namespace egtb::pgn
