#version 450 core
// Snow exposure, the depth map of one snowfall direction (docs/methods.md section 5;
// sim/gpu/GpuSnowExposure.cpp): writes the fragment's depth (m, any sign) into the R32F
// map, whose GL_MIN blend keeps the nearest surface per texel (cleared to +infinity:
// no surface), the same float value the CPU reference's map holds up to the
// interpolation (float here, double rounded to float there).

noperspective in float depth;  // m

layout(location = 0) out float outDepth;

void main() { outDepth = depth; }
