#pragma once
/// Characters the project generates itself, so that the import, skeleton-convention,
/// measurement and dressing paths are tested without third-party assets: the built-in
/// mannequin (sim/body/Mannequin.h) in other proportions, its joints renamed the way another
/// convention names them (sim/body/SkeletonConvention.h), written through assimp as glTF,
/// FBX or COLLADA (exportCharacter), one of them open and unwelded as a scan would be.
/// `hg_make_test_characters DIR` writes them all (apps/tools/make_test_characters.cpp).
#include <filesystem>
#include <string>
#include <vector>

#include "sim/body/Mannequin.h"
#include "sim/body/SkeletonConvention.h"
#include "sim/core/Result.h"

namespace hg {

struct TestCharacterSpec {
  std::string name;  ///< file stem
  SkeletonConvention naming = SkeletonConvention::Mannequin;
  MannequinParams body;   ///< its proportions (what measureBody should recover)
  std::string extension;  ///< ".glb", ".fbx" or ".dae"
  /// A scan-like surface: the soles left out (an open mesh) and every triangle with its own
  /// three vertices (a triangle soup, welded again on import).
  bool openAndUnwelded = false;
  std::string fileName() const { return name + extension; }
};

/// The shipped set: mixamo_tall.glb (1.85 m, Mixamo names with the "mixamorig:" namespace),
/// unreal_short.fbx (1.60 m, broad chest, Unreal names), smpl_average.dae (1.70 m, SMPL
/// names) and scan_open.dae (1.75 m, the mannequin's own names, open and unwelded). All in the
/// mannequin's A-pose at 1.5 cm cells.
const std::vector<TestCharacterSpec>& testCharacters();

/// The mannequin of `spec`, renamed (Mixamo joints get the "mixamorig:" namespace), open and
/// unwelded when asked.
Result<SkinnedMesh> buildTestCharacter(const TestCharacterSpec& spec);

/// A walk as BVH text in the layout of the CMU motion-capture conversions (centimetres, Y up,
/// facing +Z; LHipJoint/RHipJoint hip bones, LowerBack, Neck1, toes; the rest T-pose with
/// the legs splayed 20 degrees outwards as those files have them; the root recorded 50 cm
/// off the origin), `frames` frames at 30 fps, one stride per second: thighs straightened
/// and swung +/-25 degrees, the swinging knee bent up to 40, the feet kept flat, the arms
/// 45 degrees down from the T-pose (the dressing A-pose), the hips moving forward at
/// 1.2 m/s with the stance ankle 8 cm above the floor. `hg_make_test_characters` writes 60
/// frames as walk_cmu_layout.bvh (shipped in scenes/motion/).
std::string testWalkBvh(int frames);

/// Builds and writes `spec` into `folder` (exportCharacter); returns the file's path.
Result<std::filesystem::path> writeTestCharacter(const TestCharacterSpec& spec, const std::filesystem::path& folder);

}  // namespace hg
