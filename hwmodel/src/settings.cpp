// The settings facility (tilempi/settings.h): the declarations' checked parsers and their listings.
// The declarations themselves live with each layer (mpi/mpi_settings.cpp,
// transport/transport_settings.cpp, the chip keys in config.cpp, ...).
#include "tilempi/settings.h"

#include <charconv>
#include <cstdlib>
#include <sstream>

namespace tilempi::settings {

namespace {

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

std::string interval(std::int64_t lo, std::int64_t hi) {
  return "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
}

/// Words of `text`, wrapped to `width` columns, each line starting with `indent`.
std::string wrap(const std::string& text, const std::string& indent, std::size_t width) {
  std::istringstream in(text);
  std::string word, line, out;
  while (in >> word) {
    if (!line.empty() && indent.size() + line.size() + 1 + word.size() > width) {
      out += indent + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += indent + line + "\n";
  return out;
}

/// A table cell: '|' would end the cell.
std::string cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

std::string code(const std::string& s) { return s.empty() ? "–" : "`" + cell(s) + "`"; }

}  // namespace

std::string Setting::valid() const {
  switch (type) {
    case Type::integer:
      return range.empty() ? "an integer in " + interval(lo, hi) : range;
    case Type::boolean:
      return "true|false";
    case Type::choice:
      return join(choices, "|");
    case Type::text:
      return range;
  }
  return range;
}

Setting integer(std::string name, Source source, std::int64_t lo, std::int64_t hi, std::string default_value,
                std::string description) {
  Setting s;
  s.name = std::move(name);
  s.source = source;
  s.type = Type::integer;
  s.lo = lo;
  s.hi = hi;
  s.default_value = std::move(default_value);
  s.description = std::move(description);
  return s;
}

Setting boolean(std::string name, Source source, std::string default_value, std::string description) {
  Setting s;
  s.name = std::move(name);
  s.source = source;
  s.type = Type::boolean;
  s.default_value = std::move(default_value);
  s.description = std::move(description);
  return s;
}

Setting choice(std::string name, Source source, std::vector<std::string> choices, std::string default_value,
               std::string description) {
  Setting s;
  s.name = std::move(name);
  s.source = source;
  s.type = Type::choice;
  s.choices = std::move(choices);
  s.default_value = std::move(default_value);
  s.description = std::move(description);
  return s;
}

Setting text(std::string name, Source source, std::string range, std::string default_value,
             std::string description) {
  Setting s;
  s.name = std::move(name);
  s.source = source;
  s.type = Type::text;
  s.range = std::move(range);
  s.default_value = std::move(default_value);
  s.description = std::move(description);
  return s;
}

Setting with_flags(Setting s, std::vector<std::string> flags) {
  s.flags = std::move(flags);
  return s;
}

std::string label(const Setting& s) {
  if (s.source == Source::environment) return "environment variable " + s.name;
  return "config key '" + s.name + "'";
}

void bad_value(const Setting& s, const std::string& value, const std::string& expected) {
  throw Error(s.name, label(s) + ": bad value '" + value + "': expected " + expected, value, expected);
}

void unknown_key(const std::string& key, const std::string& what, const std::vector<Setting>& known) {
  std::string names;
  for (const Setting& k : known) names += (names.empty() ? "" : ", ") + k.name;
  throw Error(key, "unknown config key '" + key + "' (" + what + ": " + names + ")");
}

std::int64_t to_integer(const Setting& s, const std::string& value) { return to_integer(s, value, s.lo, s.hi); }

std::int64_t to_integer(const Setting& s, const std::string& value, std::int64_t lo, std::int64_t hi) {
  const std::string expected = "an integer in " + interval(lo, hi);
  std::int64_t x = 0;
  auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), x);
  if (value.empty() || ec != std::errc() || p != value.data() + value.size()) bad_value(s, value, expected);
  if (x < lo || x > hi) bad_value(s, value, expected);
  return x;
}

bool to_boolean(const Setting& s, const std::string& v) {
  if (v == "1" || v == "true" || v == "yes" || v == "on") return true;
  if (v == "0" || v == "false" || v == "no" || v == "off") return false;
  bad_value(s, v, "a boolean (true/false, 1/0, yes/no, on/off)");
}

std::string to_choice(const Setting& s, const std::string& value) {
  for (const std::string& c : s.choices)
    if (value == c) return value;
  std::string expected = "one of " + join(s.choices, ", ");
  bad_value(s, value, expected);
}

void check(const Setting& s, const std::string& value) {
  switch (s.type) {
    case Type::integer:
      (void)to_integer(s, value);
      return;
    case Type::boolean:
      (void)to_boolean(s, value);
      return;
    case Type::choice:
      (void)to_choice(s, value);
      return;
    case Type::text:
      return;
  }
}

std::optional<std::string> env_text(const Setting& s) {
  const char* v = std::getenv(s.name.c_str());
  if (!v || !*v) return std::nullopt;
  return std::string(v);
}

std::optional<std::int64_t> env_integer(const Setting& s) { return env_integer(s, s.lo, s.hi); }

std::optional<std::int64_t> env_integer(const Setting& s, std::int64_t lo, std::int64_t hi) {
  auto v = env_text(s);
  if (!v) return std::nullopt;
  return to_integer(s, *v, lo, hi);
}

std::optional<bool> env_boolean(const Setting& s) {
  auto v = env_text(s);
  if (!v) return std::nullopt;
  return to_boolean(s, *v);
}

std::optional<std::string> env_choice(const Setting& s) {
  auto v = env_text(s);
  if (!v) return std::nullopt;
  return to_choice(s, *v);
}

std::string format_text(const std::vector<Setting>& list) {
  std::string out;
  for (const Setting& s : list) {
    out += "  " + s.name + "=" + s.valid();
    if (!s.default_value.empty()) out += " (default " + s.default_value + ")";
    if (!s.flags.empty()) out += " [flag " + join(s.flags, ", ") + "]";
    out += "\n" + wrap(s.description, "      ", 100);
  }
  return out;
}

std::string format_markdown(const std::vector<Setting>& list) {
  std::string out = "| key | values | default | meaning |\n|---|---|---|---|\n";
  for (const Setting& s : list) {
    std::string values;
    switch (s.type) {
      case Type::integer:
        values = s.range.empty() ? std::to_string(s.lo) + " .. " + std::to_string(s.hi) : cell(s.range);
        break;
      case Type::boolean:
        values = "`true`, `false`";
        break;
      case Type::choice:
        for (const std::string& c : s.choices) values += (values.empty() ? "" : ", ") + code(c);
        break;
      case Type::text:
        values = cell(s.range);
        break;
    }
    std::string flags;
    for (const std::string& f : s.flags) flags += (flags.empty() ? " (flag " : ", ") + code(f);
    if (!flags.empty()) flags += ")";
    out += "| " + code(s.name) + " | " + values + " | " + cell(s.default_value.empty() ? "–" : s.default_value) +
           " | " + cell(s.description) + flags + " |\n";
  }
  return out;
}

}  // namespace tilempi::settings
