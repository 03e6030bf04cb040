// How every tilempi tool ends on a bad command line: exit status 2 and one message naming the
// option, as tilempirun does (CLI11's own codes, 105 and up, tell a script nothing, and its
// "required" check would speak before an unknown option was named).
#pragma once

#include <CLI/CLI.hpp>

#include <iostream>
#include <string>

namespace tilempi::apps {

inline constexpr int kExitUsage = 2;

/// Parses the command line. Returns -1 when the tool should go on, else the status to exit with
/// right away: 0 after --help or --version (printed), kExitUsage after a bad option (said).
inline int parse_command_line(CLI::App& app, int argc, const char* const* argv) {
  try {
    app.parse(argc, argv);
    return -1;
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string unknown;
    for (const std::string& a : app.remaining())
      if (a.size() > 1 && a[0] == '-') unknown += (unknown.empty() ? "" : " ") + a;
    std::string name = app.get_name();  // (argv[0] when the tool gave none)
    name = name.substr(name.find_last_of('/') + 1);
    std::cerr << name << ": " << (unknown.empty() ? std::string(e.what()) : "unknown option: " + unknown)
              << "\nRun '" << name << " --help' for the options.\n";
    return kExitUsage;
  }
}

}  // namespace tilempi::apps
