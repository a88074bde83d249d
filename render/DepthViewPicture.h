#pragma once
/// A picture of a body's depth views (sim/contact/DepthViews.h), to see what the cloth
/// collides with: one column per view (top, front, ...), one row per depth layer
/// (layer 0, the first surface each texel's ray meets, at the top). Texels with a
/// surface are coloured by depth (near warm, far cool) and shaded by how squarely the
/// view sees the surface; texels without one are dark.
#include "render/Image.h"
#include "sim/contact/DepthViews.h"

namespace hg {

/// The montage, the tallest view `tileHeight` pixels high (the others at the same scale).
Image depthViewsPicture(const DepthViewImages& images, int tileHeight = 320);

}  // namespace hg
