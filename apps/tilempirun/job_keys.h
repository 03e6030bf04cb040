// tilempirun's own knobs, the job.* keys: each declared once (tilempi/settings.h), set by its
// flag (-n, --transport, ...) or by `--set job.KEY=VALUE`, both through apply_job_key(), so a
// flag is an alias of its setting with one parser, one error and one default.
#pragma once

#include <string>
#include <vector>

#include "tilempi/settings.h"

namespace tilempirun {

struct Options;

namespace job_keys {
using tilempi::settings::Setting;
const Setting& ranks();           ///< job.ranks: -n, --np, --ppn
const Setting& transport();       ///< job.transport: --transport
const Setting& bind();            ///< job.bind: --bind, --bind-to
const Setting& tag_output();      ///< job.tag_output: --tag-output
const Setting& timeout();         ///< job.timeout: --timeout
const Setting& deadlock_after();  ///< job.deadlock_after: --deadlock-after
const Setting& mesh();            ///< job.mesh: --mesh
const Setting& coll();            ///< job.coll: --coll
const Setting& workdir();         ///< job.wdir: --wdir
const Setting& verbose();         ///< job.verbose: --verbose
const Setting& stdout_pattern();  ///< job.stdout: --outfile-pattern, --output-filename
const Setting& stderr_pattern();  ///< job.stderr: --errfile-pattern, --output-filename
const Setting& report_bindings(); ///< job.report_bindings: --report-bindings
const Setting& mpiexec_timeout_env();  ///< MPIEXEC_TIMEOUT: the default of job.timeout
/// Every job.* key, in listing order (by name).
std::vector<Setting> all();
/// The declaration of job key `key`, or nullptr.
const Setting* find(const std::string& key);
}  // namespace job_keys

/// Sets one job.* key of `o` from its text. Throws tilempi::settings::Error naming the key and the
/// value (an unknown job.* key names the known ones).
void apply_job_key(Options& o, const std::string& key, const std::string& value);

}  // namespace tilempirun
