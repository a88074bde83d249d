#include "apps/batch/SlurmScript.h"

#include <sys/wait.h>

#include <cstdio>
#include <sstream>

namespace hg::batch {

std::string shellQuote(const std::string& word) {
  std::string quoted = "'";
  for (char c : word) {
    if (c == '\'')
      quoted.append("'\\''");  // close, an escaped quote, open again
    else
      quoted.push_back(c);
  }
  return quoted + "'";
}

std::string slurmArrayScript(const SlurmOptions& o) {
  std::ostringstream s;
  s << "#!/bin/bash\n"
    << "# Written by `hagoromo batch --slurm`: " << o.manifest.string() << " as " << o.tasks
    << " array tasks, task t running shard t/" << o.tasks << ".\n"
    << "# Submit it again to resume (finished jobs are skipped); then `hagoromo batch merge` joins the results.\n"
    << "#SBATCH --job-name=" << o.jobName << "\n"
    << "#SBATCH --array=0-" << o.tasks - 1;
  if (o.maxParallel > 0) s << "%" << o.maxParallel;
  s << "\n#SBATCH --ntasks=1\n"
    << "#SBATCH --cpus-per-task=" << o.cpusPerTask << "\n"
    << "#SBATCH --output=" << (o.out / "slurm" / "%A_%a.log").string() << "\n";
  if (!o.gres.empty()) s << "#SBATCH --gres=" << o.gres << "\n";
  if (!o.partition.empty()) s << "#SBATCH --partition=" << o.partition << "\n";
  if (!o.time.empty()) s << "#SBATCH --time=" << o.time << "\n";
  for (const std::string& extra : o.sbatchOptions) s << "#SBATCH " << extra << "\n";
  s << "set -eu\n"
    << "exec " << shellQuote(o.program.string()) << " batch " << shellQuote(o.manifest.string()) << " --out "
    << shellQuote(o.out.string()) << " --shard \"${SLURM_ARRAY_TASK_ID}/" << o.tasks << "\" --resume --jobs "
    << o.cpusPerTask;
  for (const std::string& a : o.batchArguments) s << " " << shellQuote(a);
  s << "\n";
  return s.str();
}

std::string slurmMergeCommand(const SlurmOptions& o, const std::string& arrayJobId) {
  const std::string merge = shellQuote(o.program.string()) + " batch merge " + shellQuote(o.manifest.string()) +
                            " --out " + shellQuote(o.out.string());
  std::string command = "sbatch --parsable --job-name=" + shellQuote(o.jobName + "-merge") +
                        " --dependency=afterany:" + arrayJobId +
                        " --output=" + shellQuote((o.out / "slurm" / "merge_%j.log").string());
  if (!o.partition.empty()) command += " --partition=" + shellQuote(o.partition);
  return command + " --wrap=" + shellQuote(merge);
}

Result<std::string> runCapture(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return Error{"cannot run: " + command, ErrorKind::Output};
  std::string text;
  char chunk[4096];
  while (std::size_t n = std::fread(chunk, 1, sizeof chunk, pipe)) text.append(chunk, n);
  const int status = pclose(pipe);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (status != 0)
    return Error{command + ": failed (exit " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")" +
                     (text.empty() ? "" : ": " + text),
                 ErrorKind::Output};
  return text;
}

}  // namespace hg::batch
