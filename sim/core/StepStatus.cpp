#include "sim/core/StepStatus.h"

namespace hg {

std::string describe(StepStatus status) {
  if (!any(status)) return "ok";
  std::string text;
  auto add = [&](StepStatus bit, const char* what) {
    if ((std::uint32_t(status) & std::uint32_t(bit)) == 0) return;
    if (!text.empty()) text += " | ";
    text += what;
  };
  add(StepStatus::NonFinite, "non-finite position or velocity");
  add(StepStatus::SpeedLimitExceeded, "vertex speed above the limit");
  return text + " (the step is unstable: raise solver.substeps, lower the cloth's stiffness or raise its damping)";
}

}  // namespace hg
