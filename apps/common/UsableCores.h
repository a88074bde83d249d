#pragma once
/// How many cores this process may use, for commands that split work over processes or
/// threads (`hagoromo batch`, `hagoromo fabric-test --jobs`).

namespace hg::app {

/// The cores this process may use: a Slurm task's SLURM_CPUS_PER_TASK, else its CPU affinity
/// (taskset, cgroups), else every core of the machine.
int usableCores();

}  // namespace hg::app
