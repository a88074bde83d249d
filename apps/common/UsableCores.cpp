#include "apps/common/UsableCores.h"

#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <thread>

namespace hg::app {

int usableCores() {
  if (const char* slurm = std::getenv("SLURM_CPUS_PER_TASK"))  // a Slurm task's allocation
    if (const int n = std::atoi(slurm); n > 0) return n;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);  // taskset, cgroups
  return int(std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace hg::app
