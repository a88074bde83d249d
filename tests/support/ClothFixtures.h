#pragma once
// Small cloth models for tests.
#include <memory>
#include <optional>

#include <gtest/gtest.h>

#include "sim/cloth/ClothModel.h"
#include "sim/cloth/ClothSolver.h"

namespace hg::test {

/// A horizontal square sheet of resolution x resolution vertices, 1.6 m wide at y = 1.3.
inline std::shared_ptr<const ClothModel> sheet(int resolution, PinSet pinned = {}, ClothMaterial material = {},
                                               std::optional<AnisotropyTexture> anisotropy = std::nullopt,
                                               float size = 1.6f) {
  SquareClothSpec spec;
  spec.resolution = resolution;
  spec.size = size;
  auto mesh = makeSquareSheet(spec);
  EXPECT_TRUE(mesh) << mesh.error().message;
  auto model = buildClothModel(*mesh, material, pinned, std::move(anisotropy));
  EXPECT_TRUE(model) << model.error().message;
  return std::make_shared<const ClothModel>(std::move(model).value());
}

/// The settings with the analytic sphere and ground switched off.
inline ClothSettings withoutColliders(ClothSettings settings = {}) {
  settings.hasSphere = false;
  settings.hasGround = false;
  return settings;
}

}  // namespace hg::test
