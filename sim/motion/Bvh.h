#pragma once
/// BVH (Biovision Hierarchy) motion-capture reader.
///
/// Format (Biovision/Acclaim BVH as described by M. Meredith and S. Maddock, "Motion
/// Capture File Formats Explained", Univ. of Sheffield 2001, section 3):
///
///     HIERARCHY
///     ROOT Hips { OFFSET x y z  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
///                 JOINT Spine { OFFSET ...  CHANNELS 3 Zrotation Xrotation Yrotation  ... }
///                 End Site { OFFSET x y z } }
///     MOTION
///     Frames: N
///     Frame Time: seconds
///     N lines, each with one number per channel, in the order the CHANNELS lines appear
///
/// Interpretation used here (the common one, e.g. Blender's and MotionBuilder's importers):
/// - OFFSET is the joint's rest translation in its parent's frame; rest rotations are the
///   identity (BVH has no rest orientation).
/// - Rotation channels are Euler angles in degrees, composed in the channel order as listed:
///   "Zrotation Xrotation Yrotation" gives R = Rz * Rx * Ry (a vector is rotated by Ry first).
/// - Position channels, when present, replace the OFFSET component they name (the value is
///   the joint's translation in its parent's frame); components without a channel keep the
///   OFFSET. Usually only the root has position channels.
/// - Lengths (OFFSET and position channels) are multiplied by `unitScale`; the default 0.01
///   reads the usual centimetre files into metres. Use 1 for files in metres, 0.0254 for
///   inches, etc.
/// - "End Site" blocks become leaf joints named "<parent name>_End" with no channels (their
///   rest translation is the End Site OFFSET), so bone tips are available for display and
///   for direction-based retargeting. They carry no animation channel.
/// - Joint names are kept as written (the rest of the ROOT/JOINT line, spaces allowed).
///
/// The animation has one key per frame at time k * frameTime (seconds); joints with
/// rotation channels get a rotation track, joints with position channels a translation track.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "sim/body/Skeleton.h"
#include "sim/core/Result.h"

namespace hg {

struct BvhMotion {
  Skeleton skeleton;       ///< joints in file order (parents first), End Sites as "<parent>_End" leaves
  Animation animation;     ///< named after the source file's stem; duration (frameCount-1)*frameTime
  float frameTime = 0.0f;  ///< seconds per frame ("Frame Time:")
  int frameCount = 0;      ///< frame lines read ("Frames:" may differ by one: see warnings)
  /// Per joint (same order as skeleton.joints) the channel names as written in the file,
  /// e.g. {"Xposition","Yposition","Zposition","Zrotation","Xrotation","Yrotation"}; empty
  /// for End Site joints.
  std::vector<std::vector<std::string>> channelOrder;
  /// Harmless defects the file was read despite, each "<sourceName>:<line>: <what>": a
  /// 'Frames:' count off by one from the frame lines (the lines are used).
  std::vector<std::string> warnings;
};

/// Parses BVH text. `sourceName` is used in error messages, which have the form
/// "<sourceName>:<line>: <problem>" (missing MOTION, wrong channel count, non-numeric value,
/// Frames count mismatch by more than one, unknown channel name, unbalanced braces, ...).
Result<BvhMotion> parseBvh(std::string_view text, std::string_view sourceName, float unitScale = 0.01f);

/// Reads and parses a BVH file; `unitScale` converts file lengths to metres (default 0.01:
/// centimetres). Errors name the file.
Result<BvhMotion> loadBvh(const std::filesystem::path& path, float unitScale = 0.01f);

/// Rotation from BVH Euler angles: `axes` holds 'X', 'Y' or 'Z' per angle in channel order,
/// `degrees` the angles; the result is R(axes[0]) * R(axes[1]) * ... .
glm::quat bvhEulerRotation(std::string_view axes, const float* degrees);

}  // namespace hg
