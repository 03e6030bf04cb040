#include "options.h"

#include "job_keys.h"

#include <CLI/CLI.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string_view>
#include <tuple>

#include "tilempi/hwmodel/adapter.h"
#include "tilempi/hwmodel/config.h"
#include "tilempi/hwmodel/heatmap.h"
#include "tilempi/settings.h"
#include "tilempi/transport/job.h"
#include "tilempi/transport/transport_settings.h"

#ifdef TILEMPIRUN_HAVE_MPI
#include <mpi.h>
#include <tilempi_ext.h>

#include "../../mpi/mpi_settings.h"  // the MPI library's environment variables (TILEMPI_COLL, ...)
// Weak, so that the launcher also links against a library whose collective registry has not
// landed yet; --coll then goes unchecked to the ranks.
#pragma weak TILEMPIX_Coll_validate
#pragma weak TILEMPIX_Coll_help
#endif

#ifndef TILEMPI_VERSION_STRING
#define TILEMPI_VERSION_STRING "unknown"
#endif

namespace tilempirun {

namespace {

int usage_error(const std::string& message) {
  std::cerr << "tilempirun: " << message << "\nRun 'tilempirun --help' for the options.\n";
  return kExitUsage;
}

bool parse_positive_int(const std::string& text, int& out) {
  if (text.empty() || text.size() > 9) return false;
  for (char c : text)
    if (c < '0' || c > '9') return false;
  out = std::atoi(text.c_str());
  return out > 0;
}

bool valid_env_name(std::string_view name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  for (char c : name)
    if (!(c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
      return false;
  return true;
}

int coll_help() {
#ifdef TILEMPIRUN_HAVE_MPI
  if (&TILEMPIX_Coll_help != nullptr) {
    std::string text(1 << 16, '\0');
    TILEMPIX_Coll_help(text.data(), static_cast<int>(text.size()));
    text.resize(std::char_traits<char>::length(text.c_str()));
    std::cout << text;
    if (!text.empty() && text.back() != '\n') std::cout << '\n';
    return 0;
  }
#endif
  std::cerr << "tilempirun: this launcher was built without the MPI library's collective "
               "registry; no algorithm table is available\n";
  return kExitLaunchFailed;
}

bool coll_valid(const std::string& spec) {
#ifdef TILEMPIRUN_HAVE_MPI
  if (&TILEMPIX_Coll_validate == nullptr) return true;
  char message[1024] = {0};
  if (TILEMPIX_Coll_validate(spec.c_str(), message, sizeof message) == MPI_SUCCESS) return true;
  usage_error(std::string("--coll ") + spec + ": " +
              (message[0] ? message : "not accepted by the MPI library's collective registry"));
  return false;
#else
  (void)spec;
  return true;
#endif
}

/// `--set help[=SECTION]`: every declared setting (tilempi/settings.h), or one section of them:
/// chip, sim, adapter, env. Text for people, or markdown tables (the generated tables of
/// docs/SIM.md and docs/HWMODEL.md; scripts/settings-docs.cmake keeps them in step).
int settings_help(const std::string& section, const std::string& format, const std::string& preset,
                  const std::string& adapter) {
  namespace st = tilempi::settings;
  namespace hw = tilempi::hwmodel;
  if (section != "all" && section != "job" && section != "chip" && section != "sim" && section != "adapter" &&
      section != "env")
    return usage_error("--set help=" + section +
                       ": expected help, help=job, help=chip, help=sim, help=adapter or help=env");
  if (format != "text" && format != "markdown")
    return usage_error("--format " + format + ": expected text or markdown");
  hw::Config chip;
  std::vector<st::Setting> adapter_keys;
  try {
    chip = hw::Config::preset_named(preset);
    adapter_keys = hw::adapter::Adapter::declarations(adapter, chip);
  } catch (const hw::ConfigError& e) {
    return usage_error(e.what());
  }
  std::vector<st::Setting> env = tilempi::transport::settings::environment();
#ifdef TILEMPIRUN_HAVE_MPI
  for (const st::Setting& s : tilempi::mpi::environment_settings()) env.push_back(s);
#endif
  env.push_back(hw::gnuplot_variable());
  env.push_back(tilempirun::job_keys::mpiexec_timeout_env());
  struct Part {
    const char* section;
    std::string title;
    std::vector<st::Setting> list;
  };
  const Part parts[] = {
      {"job", "Job keys (tilempirun's own: --set job.KEY=VALUE, or the flag)", tilempirun::job_keys::all()},
      {"chip", "Chip keys (--set KEY=VALUE or --config FILE; defaults of --preset " + preset + ", docs/HWMODEL.md)",
       chip.declarations()},
      {"sim", "Sim transport keys (--set sim.KEY=VALUE; docs/SIM.md)", tilempi::transport::settings::sim_keys()},
      {"adapter",
       "Keys of adapter " + adapter + " (--set adapter." + adapter + ".KEY=VALUE; defaults on --preset " + preset +
           "; other adapters: --adapter NAME --set help)",
       adapter_keys},
      {"env",
       "Environment variables (tilempirun's environment reaches every rank; -x VAR=VALUE sets one for the "
       "ranks)",
       env},
  };
  if (section == "all" && format == "text")
    std::cout << "Settings of a tilempirun job. A bad value is an error naming the setting and its valid values.\n";
  for (const Part& part : parts) {
    if (section != "all" && section != part.section) continue;
    if (format == "markdown") {
      if (section == "all") std::cout << "\n### " << part.title << "\n\n";
      std::cout << st::format_markdown(part.list);
    } else {
      std::cout << "\n" << part.title << ":\n" << st::format_text(part.list);
    }
  }
  return 0;
}

/// Options that other launchers (MPICH's mpiexec, Open MPI's mpirun) spell with one dash or
/// under another name, with the tilempirun option each becomes, so that existing scripts run
/// unchanged. Matched whole: an option is never read as a prefix of another (-host is not -h).
struct Alias {
  const char* given;
  const char* canonical;
};
constexpr Alias kAliases[] = {
    {"-np", "--np"},
    {"-host", "--host"},           {"-hosts", "--host"},           {"--hosts", "--host"},
    {"-H", "--host"},              {"-hostfile", "--hostfile"},    {"-machinefile", "--hostfile"},
    {"--machinefile", "--hostfile"}, {"-f", "--hostfile"},
    {"-ppn", "--ppn"},             {"-npernode", "--ppn"},         {"--npernode", "--ppn"},
    {"-N", "--ppn"},
    {"-bind-to", "--bind-to"},
    {"-genv", "--genv"},           {"-env", "--genv"},             {"-genvall", "--genvall"},
    {"-tag-output", "--tag-output"}, {"-l", "--tag-output"},       {"-prepend-rank", "--tag-output"},
    {"-oversubscribe", "--oversubscribe"}, {"-allow-run-as-root", "--allow-run-as-root"},
    {"-mca", "--mca"},
    {"-wdir", "--wdir"},           {"-wd", "--wdir"},              {"--wd", "--wdir"},
    {"-output-filename", "--output-filename"}, {"-outfile-pattern", "--outfile-pattern"},
    {"-errfile-pattern", "--errfile-pattern"}, {"-map-by", "--map-by"},
    {"-report-bindings", "--report-bindings"},
};

/// The launcher's own spelling of ARG (an alias, or -np4 style short options), or ARG itself.
std::string canonical_option(const std::string& arg) {
  std::string name = arg, value;
  if (auto eq = arg.find('='); eq != std::string::npos && arg.rfind("--", 0) == 0) {
    name = arg.substr(0, eq);
    value = arg.substr(eq);
  }
  for (const Alias& a : kAliases)
    if (name == a.given) return a.canonical + value;
  return arg;
}

/// Is NAME this machine? tilempi runs every rank on one host.
bool is_this_host(std::string name) {
  if (auto colon = name.rfind(':'); colon != std::string::npos && name.find(':') == colon) name.resize(colon);  // host:slots
  if (name.empty()) return false;
  if (name == "localhost" || name == "localhost.localdomain" || name == "ip6-localhost" || name == "::1" ||
      name.rfind("127.", 0) == 0)
    return true;
  char self[256] = {0};
  if (::gethostname(self, sizeof self - 1) != 0) return false;
  std::string full = self;
  std::string shortname = full.substr(0, full.find('.'));
  return name == full || name == shortname || name.substr(0, name.find('.')) == shortname;
}

/// Checks --host lists (a,b:2,...) and --hostfile files: every host must be this one. Returns
/// an empty string when they are, else the usage error.
std::string check_hosts(const std::vector<std::string>& lists, const std::vector<std::string>& files) {
  auto foreign = [](const std::string& h) {
    char self[256] = {0};
    ::gethostname(self, sizeof self - 1);
    return h + " is not this host (" + self +
           "): tilempi runs every rank on one machine; give localhost or leave the option out";
  };
  for (const std::string& list : lists) {
    std::size_t start = 0;
    while (start <= list.size()) {
      std::size_t comma = list.find(',', start);
      if (comma == std::string::npos) comma = list.size();
      std::string h = list.substr(start, comma - start);
      if (!is_this_host(h)) return "--host " + list + ": " + foreign(h);
      start = comma + 1;
    }
  }
  for (const std::string& path : files) {
    std::ifstream in(path);
    if (!in) return "--hostfile " + path + ": cannot read the file";
    std::string line;
    while (std::getline(in, line)) {
      if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
      auto b = line.find_first_not_of(" \t\r");
      if (b == std::string::npos) continue;
      auto e = line.find_first_of(" \t\r", b);
      std::string h = line.substr(b, e == std::string::npos ? std::string::npos : e - b);
      if (!is_this_host(h)) return "--hostfile " + path + ": " + foreign(h);
    }
  }
  return {};
}

/// --report and --trace are written at the end of a run: a path that cannot be written fails
/// now, before any rank starts, not after the whole run. (A file created here to find out is
/// removed again, so that a job that fails leaves no empty file.)
std::string check_writable(const std::string& option, const std::string& path) {
  bool existed = ::access(path.c_str(), F_OK) == 0;
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return option + " " + path + ": cannot write the file (" + std::strerror(errno) + ")";
  ::close(fd);
  if (!existed) ::unlink(path.c_str());
  return {};
}

void note(const std::string& text) { std::cerr << "tilempirun: note: " << text << '\n'; }

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

class Formatter : public CLI::Formatter {
 public:
  std::string make_usage(const CLI::App*, std::string) const override {
    return "Usage: tilempirun [OPTIONS] PROGRAM [PROGRAM ARGS...] [: -n N PROGRAM2 [ARGS...]]...\n";
  }
};

}  // namespace

ParseResult parse_command_line(int argc, const char* const* argv) {
  Options o;
  ParseResult result;

  CLI::App app{
      "tilempirun: start an MPI program as N ranks (OS processes) on host cores or on the "
      "modeled tiled chip, forward their output, and end the whole job when one fails.",
      "tilempirun"};
  app.formatter(std::make_shared<Formatter>());
  app.set_version_flag("--version", "tilempirun (tilempi) " TILEMPI_VERSION_STRING);
  app.footer(
      "Everything after PROGRAM is passed to it untouched ('--' may stand before PROGRAM), but for a lone ':', "
      "which starts the next program of an MPMD job (as mpiexec's): tilempirun -n 1 ocean : -n 4 atmos runs rank 0 "
      "as ocean and ranks 1-4 as atmos, in one MPI_COMM_WORLD (MPI_APPNUM says which program a rank runs; on the "
      "sim such a job runs its ranks as processes).\n\n"
      "On the sim transport the ranks run as user-level contexts of one simulator process "
      "(tilempi-simhost), each with a private copy of PROGRAM; --set sim.ranks=processes runs "
      "one process per rank instead (auto, the default, says when and why it does so itself). "
      "--set help lists every setting with its values, its default and its flag (--set help=sim the sim "
      "keys, such as sim.stack_kib and sim.arena_mib; docs/SIM.md).\n\n"
      "Exit status: 0 when every rank succeeded; else the first failing rank's status "
      "(128+N for a rank killed by signal N), the code a rank gave MPI_Abort, 124 when "
      "--timeout expired, 130/143 when tilempirun was interrupted (SIGINT/SIGTERM), "
      "1 when the job could not start or its transport failed it (e.g. a sim deadlock, or a host job without "
      "progress for --deadlock-after), "
      "2 for a bad option, 126/127 for a program that is not executable / not found. A rank that fails before "
      "MPI_Finalize ends the job; one that exits with a nonzero status after it does not (the others finish, "
      "as with MPICH), but its status is the job's.\n");

  namespace st = tilempi::settings;
  namespace jk = job_keys;
  std::string nranks_text, mesh_text, timeout_text, deadlock_text, compute, format = "text";
  std::string transport = jk::transport().default_value, bind = jk::bind().default_value, coll, workdir;
  std::string preset, adapter, report, trace, config, ppn_text, bind_to, output_dir, out_pattern, err_pattern, map_by;
  std::vector<std::string> sets, exports, migrations_text, hosts, hostfiles;
  std::vector<std::pair<std::string, std::string>> genv, mca;
  bool oversubscribe = false, genvall = false, run_as_root = false, tag_output = false, verbose = false,
       report_bindings = false;
  // tilempirun's own flags are aliases of job.* keys (job_keys.h): the help is the declaration's.
  const auto job_help = [](const st::Setting& d) {
    std::string help = d.description;
    if (!d.default_value.empty()) help += " (default: " + d.default_value + ")";
    return help + "; --set " + d.name + "=VALUE";
  };
  app.add_option("-n,--np", nranks_text, "number of ranks, also -np (default: " + jk::ranks().default_value + "); --set " +
                                             jk::ranks().name + "=N")
      ->type_name("N");
  app.add_option("--transport", transport, job_help(jk::transport()))->type_name("host|sim")->capture_default_str();
  app.add_option("--bind", bind, job_help(jk::bind()))->capture_default_str()->type_name("core|none");
  app.add_flag("--tag-output", tag_output, job_help(jk::tag_output()));
  app.add_option("--timeout", timeout_text, job_help(jk::timeout()))->type_name("SECONDS");
  app.add_option("--deadlock-after", deadlock_text, job_help(jk::deadlock_after()))->type_name("SECONDS");
  app.add_option("--mesh", mesh_text, job_help(jk::mesh()))->type_name("WxH");
  app.add_option("--coll", coll, job_help(jk::coll()) + "; 'help' lists them")->type_name("SPEC");
  // The sim flags are aliases of sim.* settings (tilempi/transport/transport_settings.h): their help is the
  // declaration's, and their values go through SimSettings::set like --set's.
  const auto sim_flag = [&](const tilempi::settings::Setting& d, auto& into, const char* type) {
    std::string help = "sim: " + d.description;
    if (!d.default_value.empty()) help += " (default: " + d.default_value + ")";
    help += "; --set " + d.name + "=VALUE";
    return app.add_option(d.flags.at(0), into, help)->type_name(type);
  };
  namespace ts = tilempi::transport::settings;
  sim_flag(ts::sim_preset(), preset, "NAME")->description(
      "sim: chip parameter preset: " + joined(tilempi::hwmodel::Config::preset_names()) + " (default: " +
      ts::sim_preset().default_value + ", the TilePro64's 8x8 chip; -n 49 runs 7x7 ranks on it); 'help' says what each "
      "models; --set sim.preset=NAME");
  sim_flag(ts::sim_adapter(), adapter, "NAME")->description(
      "sim: network adapter model: " + joined(tilempi::hwmodel::adapter::Adapter::names()) + " (default: " +
      ts::sim_adapter().default_value + "); 'help' says what each models; --set sim.adapter=NAME");
  sim_flag(ts::sim_compute(), compute, "none|model|scale:F");
  sim_flag(ts::sim_report(), report, "FILE");
  sim_flag(ts::sim_trace(), trace, "FILE");
  app.add_option("--set", sets,
                 "set one setting KEY=VALUE (repeatable, after the flags: --set wins): a job.* key (the flags "
                 "above), a sim.* key or a chip or adapter key; 'help' lists every setting with its flag (job, chip, "
                 "sim.*, adapter keys, environment variables), help=job|chip|sim|adapter|env one part")
      ->allow_extra_args(false)
      ->type_name("key=value");
  app.add_option("--format", format, "the format of --set help: text or markdown (the tables of the docs)")
      ->type_name("text|markdown")
      ->capture_default_str();
  sim_flag(ts::sim_migrate(), migrations_text, "R:T@C")->allow_extra_args(false);
  sim_flag(ts::sim_config(), config, "FILE");
  app.add_option("-x", exports, "VAR[=value]: set VAR in every rank's environment (repeatable)")
      ->allow_extra_args(false)
      ->type_name("VAR[=value]");
  app.add_flag("--verbose", verbose, job_help(jk::verbose()));
  bool quiet = false;
  app.add_flag("--quiet", quiet, "sim: no progress lines and no summary line (sim.progress=off, sim.summary=0)");
  // What scripts written for MPICH's mpiexec and Open MPI's mpirun pass (one-dash spellings
  // such as -np, -host, -genv, -ppn, -bind-to, -l, -wdir are accepted too).
  auto* compat = "mpiexec compatibility";
  app.add_option("--host", hosts, "HOST[,HOST...]: only this machine (localhost): tilempi has one host; also -host, -hosts, -H")
      ->allow_extra_args(false)
      ->type_name("HOSTS")
      ->group(compat);
  app.add_option("--hostfile", hostfiles, "FILE of hosts: each must be this machine; also -hostfile, -machinefile, -f")
      ->allow_extra_args(false)
      ->type_name("FILE")
      ->group(compat);
  app.add_option("--ppn", ppn_text, "ranks per host: with one host, the rank count when -n is not given; also -ppn, -N, -npernode")
      ->type_name("N")
      ->group(compat);
  app.add_option("--bind-to", bind_to, "core (also hwthread, cpu) or none: as --bind; also -bind-to")
      ->type_name("core|none")
      ->group(compat);
  app.add_option("--genv", genv, "VAR VALUE: as -x VAR=VALUE; also -genv, -env")
      ->allow_extra_args(false)
      ->type_name("VAR VALUE")
      ->group(compat);
  app.add_flag("--genvall", genvall, "pass the whole environment to the ranks (always done)")->group(compat);
  app.add_option("--wdir", workdir, "DIR: the ranks' working directory; also -wdir, -wd; --set job.wdir=DIR")
      ->type_name("DIR")
      ->group(compat);
  app.add_option("--output-filename", output_dir,
                 "DIR: each rank's stdout and stderr to DIR/1/rank.R/stdout and .../stderr (as Open MPI); also -output-filename")
      ->type_name("DIR")
      ->group(compat);
  app.add_option("--outfile-pattern", out_pattern,
                 "PATH: each rank's stdout to PATH, %r its rank, %h the host, %g the job (0), %% a '%' (as MPICH); "
                 "also -outfile-pattern")
      ->type_name("PATH")
      ->group(compat);
  app.add_option("--errfile-pattern", err_pattern, "PATH: each rank's stderr, as --outfile-pattern; also -errfile-pattern")
      ->type_name("PATH")
      ->group(compat);
  app.add_option("--map-by", map_by,
                 "core, slot, hwthread: rank R on core R mod cores (what --bind core does); anything else is accepted "
                 "and ignored with a note (one host); also -map-by")
      ->type_name("SPEC")
      ->group(compat);
  app.add_flag("--report-bindings", report_bindings,
               "each rank says on stderr which core it is bound to (host); also -report-bindings")
      ->group(compat);
  app.add_flag("--oversubscribe", oversubscribe, "more ranks than cores (always allowed)")->group(compat);
  app.add_flag("--allow-run-as-root", run_as_root, "accepted (tilempirun runs as any user)")->group(compat);
  app.add_option("--mca", mca, "KEY VALUE: Open MPI component parameter, accepted and ignored with a note")
      ->allow_extra_args(false)
      ->type_name("KEY VALUE")
      ->group(compat);

  // Split argv into the launcher's part and the program's: the program starts at the first
  // argument that is neither an option nor an option's value (or after "--").
  std::vector<std::string> own;
  own.emplace_back(argc > 0 ? argv[0] : "tilempirun");
  int program_at = argc;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--") {
      program_at = i + 1;
      break;
    }
    if (a.size() < 2 || a[0] != '-') {
      program_at = i;
      break;
    }
    a = canonical_option(a);
    bool has_inline_value = false;
    std::string name = a;
    if (a.rfind("--", 0) == 0) {
      auto eq = a.find('=');
      if (eq != std::string::npos) {
        name = a.substr(0, eq);
        has_inline_value = true;
      }
    } else if (a.size() > 2) {
      // One dash and more than one letter: only a short option with its value attached
      // (-n4, -xVAR=1); anything else is unknown, never a bundle of one-letter options.
      name = a.substr(0, 2);
      const bool attached = (name == "-n" && a.find_first_not_of("0123456789", 2) == std::string::npos) || name == "-x";
      if (!attached) {
        result.exit_status = usage_error("unknown option: " + a);
        return result;
      }
      has_inline_value = true;
    }
    own.push_back(a);
    const CLI::Option* opt = app.get_option_no_throw(name);
    if (opt && !has_inline_value) {
      for (int v = 0; v < opt->get_items_expected_min() && i + 1 < argc; ++v) own.emplace_back(argv[++i]);
    }
  }

  std::vector<const char*> own_argv;
  for (auto& s : own) own_argv.push_back(s.c_str());
  try {
    app.parse(static_cast<int>(own_argv.size()), own_argv.data());
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    result.exit_status = 0;
    return result;
  } catch (const CLI::CallForVersion& e) {
    std::cout << e.what() << '\n';
    result.exit_status = 0;
    return result;
  } catch (const CLI::ExtrasError&) {
    std::string unknown;
    for (const auto& a : app.remaining()) unknown += (unknown.empty() ? "" : " ") + a;
    result.exit_status = usage_error("unknown option: " + unknown);
    return result;
  } catch (const CLI::ParseError& e) {
    result.exit_status = usage_error(e.what());
    return result;
  }

  if (coll == "help") {
    result.exit_status = coll_help();
    return result;
  }
  // --preset help, --adapter help: each registered entry and what it models (the registries'
  // help lines, hwmodel/registry.h).
  if (preset == "help" || adapter == "help") {
    const auto list = [](const auto& registry, const char* what) {
      std::cout << what << ":\n";
      for (const auto* e : registry.entries()) std::cout << "  " << e->name << "  " << e->help << '\n';
    };
    if (preset == "help")
      list(tilempi::hwmodel::Config::presets(), ("Presets (--preset NAME; default " + ts::sim_preset().default_value + ")").c_str());
    if (adapter == "help")
      list(tilempi::hwmodel::adapter::Adapter::registry(),
           ("Adapters (--adapter NAME; default " + ts::sim_adapter().default_value + ")").c_str());
    result.exit_status = 0;
    return result;
  }

  // A flag sets its setting through the setting's parser; an error names the flag and its
  // value, then the setting ("--compute fast: expected none, ... (config key 'sim.compute')").
  const auto flag_failed = [&](const st::Setting& d, const std::string& flag, const std::string& value,
                               const st::Error& e) {
    if (e.expected().empty())
      result.exit_status = usage_error(flag + " " + value + ": " + e.what());
    else
      result.exit_status = usage_error(flag + " " + e.value() + ": expected " + e.expected() + " (" + st::label(d) + ")");
    return false;
  };

  // The job keys: each at its declared default, then the flags, then --set job.KEY=VALUE in the
  // order given (so --set wins).
  std::vector<std::string> job_given;
  for (const st::Setting* d : {&jk::transport(), &jk::bind(), &jk::tag_output(), &jk::verbose()})
    apply_job_key(o, d->name, d->default_value);
  const auto job_flag = [&](const st::Setting& d, const std::string& flag, const std::string& value) {
    try {
      apply_job_key(o, d.name, value);
      job_given.push_back(d.name);
      return true;
    } catch (const st::Error& e) {
      return flag_failed(d, flag, value, e);
    }
  };
  if (!output_dir.empty()) {  // Open MPI's layout: DIR/1/rank.R/stdout and stderr
    if (out_pattern.empty()) out_pattern = output_dir + "/1/rank.%r/stdout";
    if (err_pattern.empty()) err_pattern = output_dir + "/1/rank.%r/stderr";
  }
  if (!bind_to.empty()) {
    const bool core = bind_to == "core" || bind_to == "cores" || bind_to == "hwthread" || bind_to == "cpu";
    if (!core && bind_to != "none") {
      result.exit_status = usage_error("--bind-to " + bind_to + ": expected core (hwthread, cpu) or none");
      return result;
    }
    bind = core ? "core" : "none";
  }
  for (const auto& [d, flag, value] :
       {std::tuple{&jk::ranks(), "-n", nranks_text}, std::tuple{&jk::transport(), "--transport", transport},
        std::tuple{&jk::bind(), "--bind", bind}, std::tuple{&jk::tag_output(), "--tag-output", std::string(tag_output ? "true" : "")},
        std::tuple{&jk::timeout(), "--timeout", timeout_text},
        std::tuple{&jk::deadlock_after(), "--deadlock-after", deadlock_text}, std::tuple{&jk::mesh(), "--mesh", mesh_text},
        std::tuple{&jk::coll(), "--coll", coll}, std::tuple{&jk::workdir(), "--wdir", workdir},
        std::tuple{&jk::stdout_pattern(), "--outfile-pattern", out_pattern},
        std::tuple{&jk::stderr_pattern(), "--errfile-pattern", err_pattern},
        std::tuple{&jk::report_bindings(), "--report-bindings", std::string(report_bindings ? "true" : "")},
        std::tuple{&jk::verbose(), "--verbose", std::string(verbose ? "true" : "")}})
    if (!value.empty() && !job_flag(*d, flag, value)) return result;
  for (const auto& s : sets) {
    const auto eq = s.find('=');
    if (s.rfind("job.", 0) != 0 || eq == std::string::npos) continue;
    try {
      apply_job_key(o, s.substr(0, eq), s.substr(eq + 1));
      job_given.push_back(s.substr(0, eq));
    } catch (const st::Error& e) {
      result.exit_status = usage_error(e.what());
      return result;
    }
  }
  const auto job_set = [&](const st::Setting& d) {
    return std::find(job_given.begin(), job_given.end(), d.name) != job_given.end();
  };

  // The sim settings: first the flags, then every --set in the order given (so --set wins).
  const auto by_flag = [&](const st::Setting& d, const std::string& flag, const std::string& value) {
    try {
      o.sim.set(d.name, value);
      return true;
    } catch (const st::Error& e) {
      return flag_failed(d, flag, value, e);
    }
  };
  for (const auto& [d, value] : {std::pair{&ts::sim_preset(), preset}, std::pair{&ts::sim_adapter(), adapter},
                                 std::pair{&ts::sim_compute(), compute}, std::pair{&ts::sim_report(), report},
                                 std::pair{&ts::sim_trace(), trace}, std::pair{&ts::sim_config(), config}})
    if (!value.empty() && !by_flag(*d, d->flags.at(0), value)) return result;
  for (const std::string& m : migrations_text)
    if (!by_flag(ts::sim_migrate(), "--migrate", m)) return result;
  if (quiet && o.transport == "sim") {
    if (!by_flag(ts::sim_progress(), "--quiet", "off") || !by_flag(ts::sim_summary(), "--quiet", "false")) return result;
  }
  bool help_asked = false;
  std::string help_section;
  for (const auto& s : sets) {
    if (s == "help" || s.rfind("help=", 0) == 0) {
      help_asked = true;
      help_section = s == "help" ? "all" : s.substr(5);
      continue;
    }
    auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0) {
      result.exit_status = usage_error("--set " + s + ": expected key=value");
      return result;
    }
    if (s.rfind("job.", 0) == 0) continue;  // set above
    try {
      o.sim.set(s.substr(0, eq), s.substr(eq + 1));
    } catch (const tilempi::settings::Error& e) {
      result.exit_status = usage_error(e.what());
      return result;
    }
  }
  if (help_asked) {
    result.exit_status = settings_help(help_section, format, o.sim.preset, o.sim.adapter);
    return result;
  }

  if (std::string bad = check_hosts(hosts, hostfiles); !bad.empty()) {
    result.exit_status = usage_error(bad);
    return result;
  }
  if (!hosts.empty() || !hostfiles.empty()) note("every rank runs on this host (--host/--hostfile name only this one)");
  for (const auto& [key, value] : mca)
    note("--mca " + key + " " + value + " ignored: an Open MPI component parameter, tilempi has none");
  for (const auto& [name, value] : genv) exports.push_back(name + "=" + value);
  if (!map_by.empty()) {
    const std::string how = map_by.substr(0, map_by.find(':'));
    if (how != "core" && how != "slot" && how != "hwthread" && how != "pu")
      note("--map-by " + map_by + " ignored: one host, ranks go to its cores in rank order (as --map-by core)");
  }
  if (o.report_bindings && o.transport == "sim")
    note("--report-bindings: on the sim the ranks run on the modeled chip's tiles (--report has each rank's tile); "
         "no host core is bound");
  else if (o.report_bindings)
    exports.push_back(std::string(tilempi::transport::kEnvReportBindings) + "=1");
  (void)oversubscribe;  // ranks beyond the cores are always allowed
  (void)genvall;        // every rank gets the launcher's environment
  (void)run_as_root;
  if (!o.workdir.empty()) {
    struct stat info{};
    if (::stat(o.workdir.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
      result.exit_status = usage_error("--wdir " + o.workdir + ": not a directory");
      return result;
    }
  }
  for (const auto& [option, path] : {std::pair{"--report", o.sim.report}, std::pair{"--trace", o.sim.trace}}) {
    if (path.empty()) continue;
    if (std::string bad = check_writable(option, path); !bad.empty()) {
      result.exit_status = usage_error(bad);
      return result;
    }
  }
  if (!o.sim.migrations.empty() && o.transport != "sim") {
    result.exit_status = usage_error("--migrate needs --transport sim (tasks move between modeled tiles)");
    return result;
  }
  // A config file that gives the mesh size (both width and height) gives the rank grid and, without
  // -n, the number of ranks: `tilempirun --config chip.cfg ./prog` runs one rank per tile.
  int config_w = 0, config_h = 0;
  if (!o.sim.config_file.empty()) {
    tilempi::hwmodel::Config file;
    const std::vector<std::string> keys = file.apply_text(o.sim.config_text, o.sim.config_file);
    const auto has = [&](const char* k) { return std::find(keys.begin(), keys.end(), k) != keys.end(); };
    if (has("width") && has("height")) {
      config_w = file.width;
      config_h = file.height;
    }
  }
  for (const auto& x : exports) {
    auto eq = x.find('=');
    std::string name = x.substr(0, eq);
    if (!valid_env_name(name)) {
      result.exit_status = usage_error("-x " + x + ": not a valid variable name");
      return result;
    }
    if (eq != std::string::npos) {
      o.env.emplace_back(name, x.substr(eq + 1));
    } else if (const char* v = std::getenv(name.c_str())) {
      o.env.emplace_back(name, v);
    } else {
      result.exit_status = usage_error("-x " + name + ": the variable is not set here; use -x " + name + "=value");
      return result;
    }
  }

  if (o.nranks == 0 && config_w > 0) o.nranks = config_w * config_h;
  if (!ppn_text.empty()) {
    int ppn = 0;
    if (!parse_positive_int(ppn_text, ppn)) {
      result.exit_status = usage_error("--ppn " + ppn_text + ": expected a positive number of ranks per host");
      return result;
    }
    if (!job_set(jk::ranks())) {
      o.nranks = ppn;  // one host: ranks per host is the rank count
    } else if (ppn != o.nranks) {
      note("--ppn " + ppn_text + " ignored: tilempi has one host, which runs all " + std::to_string(o.nranks) + " ranks");
    }
  }
  if (o.nranks == 0) o.nranks = 1;  // mpiexec without -n: one rank
  if (!job_set(jk::mesh()) && config_w > 0) {
    o.mesh_width = config_w;
    o.mesh_height = config_h;
  }

  // The defaults read from the environment: MPIEXEC_TIMEOUT (as mpiexec reads it) and
  // TILEMPI_HOST_DEADLOCK_AFTER, each parsed as its job key's value.
  if (!job_set(jk::timeout())) {
    const st::Setting& env = jk::mpiexec_timeout_env();
    if (auto v = st::env_text(env)) {
      try {
        apply_job_key(o, jk::timeout().name, *v);
      } catch (const st::Error& e) {
        result.exit_status = usage_error(st::label(env) + ": bad value '" + *v + "': expected " + e.expected());
        return result;
      }
    }
  }
  if (!job_set(jk::deadlock_after())) {
    const st::Setting& env = tilempi::transport::settings::host_deadlock_after_env();
    const std::optional<std::string> v = st::env_text(env);
    try {
      apply_job_key(o, jk::deadlock_after().name, v.value_or(env.default_value));
    } catch (const st::Error& e) {
      result.exit_status = usage_error(st::label(env) + " '" + *v + "': expected " + e.expected());
      return result;
    }
  }

  if (!o.coll.empty() && !coll_valid(o.coll)) {
    result.exit_status = kExitUsage;
    return result;
  }

  if (program_at >= argc) {
    result.exit_status = usage_error("no program to run");
    return result;
  }
  if (o.mesh_width > 0 && static_cast<long>(o.mesh_width) * o.mesh_height < o.nranks) {
    result.exit_status = usage_error("--mesh " + std::to_string(o.mesh_width) + "x" +
                                     std::to_string(o.mesh_height) + " has fewer tiles than the " +
                                     std::to_string(o.nranks) + " ranks");
    return result;
  }

  // MPMD: "PROGRAM ARGS : -n N PROGRAM2 ARGS2 : ..." (mpiexec's colon, MPI-3.1 §10.5.1). As with
  // MPICH's mpiexec, a lone ':' is never a program argument.
  o.apps.push_back({argv[program_at], {}, o.nranks});
  for (int i = program_at + 1; i < argc; ++i) {
    if (std::string(argv[i]) != ":") {
      o.apps.back().args.emplace_back(argv[i]);
      continue;
    }
    int count = 0;
    std::string n = i + 1 < argc ? argv[i + 1] : "";
    std::string value;
    if (n == "-n" || n == "-np" || n == "--n" || n == "--np") {
      value = i + 2 < argc ? argv[i + 2] : "";
      i += 2;
    } else if (n.rfind("-n", 0) == 0 && n.size() > 2 && n.find_first_not_of("0123456789", 2) == std::string::npos) {
      value = n.substr(2);
      i += 1;
    } else {
      result.exit_status = usage_error("after ':' each program needs its rank count first (': -n N PROGRAM ARGS'), got '" +
                                       n + "'");
      return result;
    }
    if (!parse_positive_int(value, count)) {
      result.exit_status = usage_error("after ':', -n " + value + ": expected a positive rank count");
      return result;
    }
    if (i + 1 >= argc || std::string(argv[i + 1]) == ":" || argv[i + 1][0] == '-') {
      result.exit_status = usage_error("after ': -n " + value + "' a program must follow (options go before the first program)");
      return result;
    }
    o.apps.push_back({argv[++i], {}, count});
  }
  if (o.apps.size() > 1) {
    long total = 0;
    for (const Options::App& a : o.apps) total += a.nranks;
    if (total > 1'000'000) {
      result.exit_status = usage_error("the programs after ':' ask for " + std::to_string(total) + " ranks in all");
      return result;
    }
    o.nranks = static_cast<int>(total);
    if (o.mesh_width > 0 && static_cast<long>(o.mesh_width) * o.mesh_height < o.nranks) {
      result.exit_status = usage_error("--mesh " + std::to_string(o.mesh_width) + "x" + std::to_string(o.mesh_height) +
                                       " has fewer tiles than the " + std::to_string(o.nranks) + " ranks of the programs");
      return result;
    }
  }
  o.program = o.apps.front().program;
  o.args = o.apps.front().args;
  result.options = std::move(o);
  return result;
}

}  // namespace tilempirun
