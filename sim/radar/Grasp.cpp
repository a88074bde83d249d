#include "sim/radar/Grasp.h"

#include <cmath>
#include <string>

#include "sim/core/Numbers.h"

namespace hg {

// ---- settings and scene ----

Status GraspSettings::validate() const {
  if (image.width < 8 || image.height < 8 || image.width > HG_RADAR_MAX_IMAGE || image.height > HG_RADAR_MAX_IMAGE)
    return Error{"radar.image must be in 8.." + std::to_string(HG_RADAR_MAX_IMAGE) + " pixels"};
  const std::pair<float, const char*> positives[] = {{detectWidth, "radar.detect_width"},
                                                     {detectHeight, "radar.detect_height"},
                                                     {detectDepth, "radar.detect_depth"},
                                                     {maxSize, "radar.max_size"},
                                                     {segmentRange, "radar.segment_range"},
                                                     {lookAhead, "radar.look_ahead"},
                                                     {scanStep, "motion.scan_step_deg"},
                                                     {approachStep, "motion.approach_step"},
                                                     {approachClearance, "motion.approach_clearance"},
                                                     {maxApproach, "motion.max_approach"},
                                                     {jointStep, "motion.joint_step_deg"},
                                                     {graspClearance, "motion.grasp_clearance"}};
  for (const auto& [value, name] : positives)
    if (!(std::isfinite(value) && value > 0.0f)) return Error{std::string(name) + " must be finite and > 0"};
  if (!(contactTolerance >= 0.0f && std::isfinite(contactTolerance)))
    return Error{"motion.contact_tolerance must be >= 0"};
  if (scanStep > kPi) return Error{"motion.scan_step_deg must be <= 180"};
  if (jointStep > 1.0f) return Error{"motion.joint_step_deg must be <= 57 (the sweep is a translation)"};
  if (maxAimFrames < 0) return Error{"motion.max_aim_frames must be >= 0"};
  if (jointIterations < 1) return Error{"motion.joint_iterations must be >= 1"};
  if (maxFrames < 1) return Error{"motion.max_frames must be >= 1"};
  return Status::success();
}

}  // namespace hg
