#version 450 core
// Per-spring setup: samples the anisotropy texture at the spring's midpoint UV and
// sets stiffness = baseStiffness x K(direction) (kernels/anisotropy.glslh). The CPU
// reference is hg::applyAnisotropy (sim/cloth/ClothModel.cpp).
#include "kernels/cloth_layout.glslh"
#include "kernels/anisotropy.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_CLOTH_PARAMS) readonly buffer ParamsBlock { ClothStepParams params; };
layout(std430, binding = HG_BINDING_SPRINGS) buffer Springs { ClothSpring springs[]; };
layout(binding = HG_TEXTURE_UNIT_ANISOTROPY) uniform sampler2D anisotropyTexture;

layout(location = 0) uniform int hasTexture;
layout(location = 1) uniform float anisotropyScale;

void main() {
  uint s = gl_GlobalInvocationID.x;
  if (s >= params.springCount) return;
  ClothSpring spring = springs[s];
  float factor = 1.0;
  if (hasTexture != 0) {
    BilinearTaps taps = bilinearTaps(spring.uv.xy, textureSize(anisotropyTexture, 0));
    vec4 k = blendTaps(texelFetch(anisotropyTexture, taps.texels.xy, 0), texelFetch(anisotropyTexture, taps.texels.zy, 0),
                       texelFetch(anisotropyTexture, taps.texels.xw, 0), texelFetch(anisotropyTexture, taps.texels.zw, 0), taps);
    factor = anisotropyFactor(k * anisotropyScale, spring.uv.zw);
  }
  springs[s].stiffness = spring.baseStiffness * factor;
}
