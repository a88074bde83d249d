#version 450 core
// Shading of the snow-covered scene (render/SnowSceneView.h; docs/methods.md section 5):
// the surface's own colour, snow white where the snow is deep enough, lit by a sun and
// a sky hemisphere. Two-sided. Units: metres.
in vec3 worldPosition;
in vec3 worldNormal;
in float snowDepth;  // m, interpolated

layout(location = 1) uniform vec3 baseColor;    // linear RGB of the bare surface
layout(location = 3) uniform vec3 eyePosition;  // m
layout(location = 4) uniform vec2 snowRamp;     // m: snow depths where white begins and where it is full
layout(location = 8) uniform int facetedSnow;   // 1: snowy parts shaded with the triangle's own normal

out vec4 fragColor;

void main() {
  vec3 toEye = normalize(eyePosition - worldPosition);
  vec3 n = normalize(worldNormal);
  if (!gl_FrontFacing) n = -n;
  float white = smoothstep(snowRamp.x, snowRamp.y, snowDepth);
  if (facetedSnow == 1 && white > 0.0) {
    // The objects' vertex normals are those of the bare mesh: where snow lies, the
    // displaced triangle's own normal (facing the eye) is the better guess.
    vec3 face = cross(dFdx(worldPosition), dFdy(worldPosition));
    if (dot(face, face) > 0.0) {
      face = normalize(face);
      if (dot(face, toEye) < 0.0) face = -face;
      n = normalize(mix(n, face, white));
    }
  }
  vec3 snowColor = vec3(0.90, 0.92, 0.95);
  vec3 base = mix(baseColor, snowColor, white);
  vec3 sunDir = normalize(vec3(0.45, 0.85, 0.35));
  vec3 sun = vec3(1.00, 0.96, 0.88) * max(dot(n, sunDir), 0.0);
  vec3 sky = mix(vec3(0.20, 0.19, 0.18), vec3(0.42, 0.50, 0.62), 0.5 + 0.5 * n.y);
  vec3 h = normalize(sunDir + toEye);
  float specular = pow(max(dot(n, h), 0.0), 32.0) * mix(0.04, 0.10, white);
  vec3 color = base * (0.55 * sun + 0.75 * sky) + vec3(specular);
  fragColor = vec4(pow(clamp(color, 0.0, 1.0), vec3(1.0 / 2.2)), 1.0);
}
