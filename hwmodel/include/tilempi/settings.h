// Declared settings: every knob of tilempi (chip keys, adapter keys, sim.* keys, environment
// variables) is declared once, as a Setting, next to the code that reads it. Parsing with
// checked errors, the `tilempirun --set help` listing and the parameter tables of docs/SIM.md
// and docs/HWMODEL.md are all derived from these declarations.
//
// This facility lives in the lowest layer (the tilempi_hwmodel target) because hwmodel declares
// settings itself (the chip keys, TILEMPI_GNUPLOT) and every layer above links it; it knows
// nothing of the chip. Each layer keeps its own declarations (see docs/ARCHITECTURE.md,
// "The settings table").
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace tilempi::settings {

/// Where a setting is given.
enum class Source {
  chip,         ///< chip key: --set KEY=VALUE, --config FILE (hwmodel Config)
  adapter,      ///< adapter key: --set adapter.NAME.KEY=VALUE (hwmodel/adapter)
  sim,          ///< sim transport key: --set sim.KEY=VALUE
  environment,  ///< environment variable (of the launcher, and -x for ranks)
  job,          ///< launcher key: --set job.KEY=VALUE (tilempirun's own knobs, each also a flag)
};

enum class Type {
  integer,  ///< decimal integer in [lo, hi]
  boolean,  ///< true/false, 1/0, yes/no, on/off
  choice,   ///< one of `choices`
  text,     ///< free text; `range` says what is accepted and who checks it
};

struct Setting {
  std::string name;         ///< key or variable name, e.g. "width", "sim.ranks", "TILEMPI_HOST_EAGER"
  Source source = Source::chip;
  Type type = Type::text;
  std::int64_t lo = 0;      ///< integer: smallest value
  std::int64_t hi = 0;      ///< integer: largest value
  std::vector<std::string> choices;  ///< choice: the accepted values
  std::string range;        ///< text (and special cases): the accepted values in words; else derived
  std::string default_value;  ///< the default, as text (may be a rule, e.g. "160 up to 16 ranks, else 64")
  std::string description;
  /// The command-line flags that set this setting (tilempirun's aliases), e.g. "--adapter"; a flag
  /// that sets it to one value says so: "--quiet (off)".
  std::vector<std::string> flags;

  /// The valid values in words: "[1, 1024]", "true|false", "flit|packet", or `range`.
  std::string valid() const;
};

/// Builders, so that a declaration reads as one line of a table.
Setting integer(std::string name, Source source, std::int64_t lo, std::int64_t hi, std::string default_value,
                std::string description);
Setting boolean(std::string name, Source source, std::string default_value, std::string description);
Setting choice(std::string name, Source source, std::vector<std::string> choices, std::string default_value,
               std::string description);
Setting text(std::string name, Source source, std::string range, std::string default_value,
             std::string description);

/// A bad value or an unknown name. what() names the setting and its valid values.
class Error : public std::invalid_argument {
 public:
  Error(std::string name, const std::string& message) : std::invalid_argument(message), name_(std::move(name)) {}
  /// A bad value (bad_value()): the value and what was expected, so that a flag that sets the
  /// setting can say it in its own words ("--compute fast: expected ...").
  Error(std::string name, const std::string& message, std::string value, std::string expected)
      : std::invalid_argument(message), name_(std::move(name)), value_(std::move(value)), expected_(std::move(expected)) {}
  const std::string& name() const { return name_; }
  const std::string& value() const { return value_; }
  /// Empty when the error is not a bad value of a known setting (an unknown name, a file).
  const std::string& expected() const { return expected_; }

 private:
  std::string name_;
  std::string value_;
  std::string expected_;
};

/// The setting with `flags` added (a declaration reads as one expression).
Setting with_flags(Setting s, std::vector<std::string> flags);

/// "config key 'width'" or "environment variable TILEMPI_HOST_EAGER": how messages name a setting.
std::string label(const Setting& s);
/// Throws Error: "<label>: bad value '<value>': expected <what>".
[[noreturn]] void bad_value(const Setting& s, const std::string& value, const std::string& expected);

/// Throws Error: "unknown config key 'KEY' (WHAT: a, b, c)", naming every setting of `known`.
[[noreturn]] void unknown_key(const std::string& key, const std::string& what, const std::vector<Setting>& known);

/// Checked conversions of a value of `s`; each throws Error naming `s` and its valid values.
std::int64_t to_integer(const Setting& s, const std::string& value);
/// As above with a narrower range known only at run time (e.g. a limit that depends on the job);
/// the message gives that range.
std::int64_t to_integer(const Setting& s, const std::string& value, std::int64_t lo, std::int64_t hi);
bool to_boolean(const Setting& s, const std::string& value);
std::string to_choice(const Setting& s, const std::string& value);
/// Checks `value` by the type of `s` (text: accepted as is); throws Error.
void check(const Setting& s, const std::string& value);

/// Environment variables: the value, or nothing when the variable is unset or empty. A set
/// variable is checked like any value (throws Error).
std::optional<std::string> env_text(const Setting& s);
std::optional<std::int64_t> env_integer(const Setting& s);
std::optional<std::int64_t> env_integer(const Setting& s, std::int64_t lo, std::int64_t hi);
std::optional<bool> env_boolean(const Setting& s);
std::optional<std::string> env_choice(const Setting& s);

/// A listing for people (`tilempirun --set help`): one entry per setting,
///   name=VALID (default D) [flag --F]
///       description
std::string format_text(const std::vector<Setting>& list);
/// A markdown table: | key | values | default | meaning | (the docs' generated tables).
std::string format_markdown(const std::vector<Setting>& list);

}  // namespace tilempi::settings
