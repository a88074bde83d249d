// The command line's progress bar (apps/common/Progress.h): the bar stays within its width
// when the work runs past its estimate (sewing that takes more frames than planned).
#include <string>

#include <gtest/gtest.h>

#include "apps/common/Progress.h"

namespace hg::app {
namespace {

TEST(Progress, WorkPastTheTotalDrawsAFullBar) {
  testing::internal::CaptureStderr();
  {
    Progress progress("sew", 10, /*enabled=*/true);
    progress.update(5);
    progress.update(12, "seam gap 3.0 mm");
  }
  const std::string drawn = testing::internal::GetCapturedStderr();
  EXPECT_NE(drawn.find("[###############...............]  50% 5/10"), std::string::npos) << drawn;
  EXPECT_NE(drawn.find("[##############################] 100% 12/10"), std::string::npos) << drawn;
  EXPECT_NE(drawn.find("seam gap 3.0 mm"), std::string::npos) << drawn;
}

}  // namespace
}  // namespace hg::app
