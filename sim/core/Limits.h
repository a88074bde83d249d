#pragma once
/// Upper bounds on every count and size a user can ask for, checked before anything is
/// allocated or run, with the limit in the message (docs: docs/user-guide.md, "Limits"). They are far
/// above what the shipped scenes use and keep an absurd value (a typo, 1e9 frames) from
/// running for days or exhausting memory: the run is refused in milliseconds instead.
namespace hg::limits {

// Cloth (drape scenes and the command line).
inline constexpr int kMaxFrames = 100000;                  ///< frames of a drape (27 min at 60 fps)
inline constexpr int kMaxSubsteps = 100000;                ///< substeps per frame
inline constexpr long long kMaxTotalSubsteps = 100000000;  ///< frames x substeps of one run
inline constexpr int kMaxSolverIterations = 10000;         ///< projective Jacobi iterations per substep
inline constexpr int kMaxThreads = 1024;                   ///< CPU backend threads
inline constexpr int kMaxSheetResolution = 4096;           ///< vertices along a side of the square sheet
inline constexpr int kMaxSewingFrames = 10000;
inline constexpr int kMaxImageSide = 8192;  ///< pixels of a rendered picture's side
inline constexpr int kMinImageSide = 16;
inline constexpr int kMaxVoxelResolution = 512;  ///< sphere trees: voxels along the longest side
inline constexpr int kMinVoxelResolution = 8;

// Skinning rigs.
inline constexpr int kMaxRigRings = 1000;        ///< rings / segments of a generated limb (1 M vertices)
inline constexpr int kMaxRigSubdivisions = 256;  ///< subdivisions of a generated box per side
inline constexpr int kMaxMotionFrames = 100000;  ///< frames of a motion (rig, BVH)
inline constexpr int kMaxStepsPerFrame = 10000;  ///< particle steps per frame
inline constexpr int kMaxSettleSteps = 1000000;

// Snow.
inline constexpr int kMaxSnowDirections = 65536;  ///< snowfall directions (depth maps) per pass
inline constexpr int kMaxSnowPasses = 65536;
inline constexpr long long kMaxSnowMaps = 1 << 20;    ///< passes x directions of one run
inline constexpr int kMaxReposeIterations = 1000000;  ///< relaxation sweeps per pass

// Files.
inline constexpr int kMaxTextureSide = 16384;  ///< pixels of an input texture's side

}  // namespace hg::limits
